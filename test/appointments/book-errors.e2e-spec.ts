import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import { DataSource } from 'typeorm';
import { type ApiClient, type ApiResponse, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar, createForm } from '../support/catalog-fixtures';
import { type TestAccount, createAccount, startApi } from '../support/test-app';

/** Monday 2030-06-03 in New York (-0400); types look 10 years ahead so that it is bookable. */
const MONDAY = '2030-06-03';
const HORIZON = { maxDaysInAdvance: 3650 };
const HOURS = { monday: [{ start: '09:00', end: '17:00' }] };
/** An id no row of any table has. */
const MISSING = 999_999_999;

/** Creates through the API and returns the body; fails loudly when refused. */
async function created<T = { id: number }>(
  api: ApiClient,
  path: string,
  body: unknown,
): Promise<T> {
  const res = await api.post(path, body);
  if (res.status !== 200)
    throw new Error(`POST ${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

/** The status and body of an answer, to compare whole (a failed booking shows its error). */
const answer = (res: ApiResponse) => ({ status: res.status, body: res.body as unknown });

describe('POST /appointments: the errors of the contract, in its order (e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let account: TestAccount;
  let api: ApiClient;
  let other: ApiClient;
  let codes = 0;

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
    // The account's zone differs from the calendars': a datetime without offset shows which is used.
    account = await createAccount(app, { timezone: 'America/Chicago' });
    api = apiClient(app, account);
    other = apiClient(app, await createAccount(app));
  });

  afterAll(() => app.close());

  /** A calendar of its own (so that tests do not share slots) and a 45-minute type on it. */
  async function service(attributes: Record<string, unknown> = {}, hours: object = HOURS) {
    const calendar = await createCalendar(api, {
      name: 'Alex',
      timezone: 'America/New_York',
      hours,
    });
    const type = await createAppointmentType(api, {
      name: 'Haircut',
      duration: 45,
      price: '40.00',
      slotInterval: 15,
      calendarIDs: [calendar],
      ...HORIZON,
      ...attributes,
    });
    return { calendar, type };
  }

  const client = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' };

  /** A code no other test of the run uses (codes are unique per account). */
  function freshCode(prefix: string): string {
    codes += 1;
    return `${prefix}-${codes}-${Date.now()}`;
  }

  /** What a booking writes: the account's appointments and outbox rows. */
  async function written(): Promise<{ appointments: number; outbox: number }> {
    const [row] = await db.query<{ appointments: string; outbox: string }[]>(
      `SELECT (SELECT COUNT(*) FROM appointments WHERE account_id = ?) AS appointments,
              (SELECT COUNT(*) FROM outbox WHERE account_id = ?) AS outbox`,
      [account.id, account.id],
    );
    return { appointments: Number(row.appointments), outbox: Number(row.outbox) };
  }

  /** Books and expects the contract's error, whole; a refused booking writes nothing. */
  async function expectRefused(
    body: Record<string, unknown>,
    expected: { status: number; body: Record<string, unknown> },
    path = '/appointments',
  ): Promise<void> {
    const before = await written();
    expect(answer(await api.post(path, body))).toEqual(expected);
    expect(await written()).toEqual(before);
  }

  async function expectBooked(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const res = await api.post('/appointments', body);
    expect({ status: res.status, body: res.status === 200 ? 'booked' : res.body }).toEqual({
      status: 200,
      body: 'booked',
    });
    return res.body as Record<string, unknown>;
  }

  describe('client attributes', () => {
    let type: number;
    beforeAll(async () => ({ type } = await service()));

    const at = () => ({ appointmentTypeID: type, datetime: `${MONDAY}T10:00` });

    it.each([
      ['missing', {}],
      ['empty', { firstName: '' }],
      ['blank', { firstName: '   ' }],
    ])('required_first_name when firstName is %s', async (_, attribute) => {
      await expectRefused(
        { lastName: 'L', email: 'a@b.co', ...attribute, ...at() },
        apiError(400, 'required_first_name', 'Attribute "firstName" is required.'),
      );
    });

    it.each([
      ['missing', {}],
      ['blank', { lastName: ' ' }],
    ])('required_last_name when lastName is %s', async (_, attribute) => {
      await expectRefused(
        { firstName: 'A', email: 'a@b.co', ...attribute, ...at() },
        apiError(400, 'required_last_name', 'Attribute "lastName" is required.'),
      );
    });

    it.each([
      ['missing', {}],
      ['blank', { email: '  ' }],
    ])('required_email when email is %s', async (_, attribute) => {
      await expectRefused(
        { firstName: 'A', lastName: 'L', ...attribute, ...at() },
        apiError(400, 'required_email', 'Attribute "email" is required.'),
      );
    });

    it.each(['nope', 'a@', '@b.co', 'a b@c.co'])('invalid_email for %p', async (email) => {
      await expectRefused(
        { firstName: 'A', lastName: 'L', email, ...at() },
        apiError(400, 'invalid_email', 'Invalid "email" attribute value.'),
      );
    });

    it('required_phone when the account settings require a phone (never for an admin)', async () => {
      const owner = await createAccount(app);
      const strict = apiClient(app, owner);
      expect(await strict.put('/settings', { requirePhone: true })).toMatchObject({
        status: 200,
        body: { requirePhone: true },
      });
      const calendar = await createCalendar(strict, { timezone: 'America/New_York', hours: HOURS });
      const ownType = await createAppointmentType(strict, {
        duration: 45,
        slotInterval: 15,
        calendarIDs: [calendar],
        ...HORIZON,
      });
      const body = { ...client, appointmentTypeID: ownType, calendarID: calendar };
      const required = apiError(400, 'required_phone', 'Attribute "phone" is required.');
      expect(
        answer(await strict.post('/appointments', { ...body, datetime: `${MONDAY}T10:00` })),
      ).toEqual(required);
      expect(
        answer(
          await strict.post('/appointments', { ...body, phone: ' ', datetime: `${MONDAY}T10:00` }),
        ),
      ).toEqual(required);
      expect(
        await strict.post('/appointments', {
          ...body,
          phone: '+1 555 0100',
          datetime: `${MONDAY}T10:00`,
        }),
      ).toMatchObject({ status: 200, body: { phone: '+1 555 0100' } });
      expect(
        await strict.post('/appointments?admin=true', { ...body, datetime: `${MONDAY}T11:00` }),
      ).toMatchObject({ status: 200, body: { phone: '' } });
    });
  });

  describe('form fields', () => {
    let type: number;
    let calendar: number;
    let name: number;
    let size: number;

    beforeAll(async () => {
      const form = await created<{ id: number; fields: { id: number }[] }>(api, '/forms', {
        name: 'Intake',
        fields: [
          { name: 'Full name', type: 'textbox', required: true },
          { name: 'Size', type: 'dropdown', options: ['Small', 'Large'] },
        ],
      });
      [name, size] = form.fields.map((f) => f.id);
      ({ type, calendar } = await service({ formIDs: [form.id] }));
    });

    const booking = (fields: unknown[]) => ({
      ...client,
      appointmentTypeID: type,
      calendarID: calendar,
      datetime: `${MONDAY}T10:00`,
      fields,
    });

    it('invalid_fields for a field that is not on the type forms', async () => {
      const stray = await createForm(api, { fields: [{ name: 'Q', type: 'textbox' }] });
      const strayField = ((await api.get(`/forms/${stray}`)).body as { fields: { id: number }[] })
        .fields[0].id;
      for (const id of [MISSING, strayField, 'abc'])
        await expectRefused(
          booking([
            { id: name, value: 'Ada' },
            { id, value: 'x' },
          ]),
          apiError(400, 'invalid_fields', `The field "${id}" does not exist on this appointment.`),
        );
    });

    it('required_field for a required field left out or blank', async () => {
      const message = `The field "${name}" is required.`;
      await expectRefused(booking([]), apiError(400, 'required_field', message));
      await expectRefused(
        booking([
          { id: size, value: 'Small' },
          { id: name, value: '  ' },
        ]),
        apiError(400, 'required_field', message),
      );
    });
  });

  describe('type, calendar, timezone and datetime', () => {
    let type: number;
    let calendar: number;
    beforeAll(async () => ({ type, calendar } = await service()));

    const booking = (attributes: Record<string, unknown>) => ({
      ...client,
      appointmentTypeID: type,
      calendarID: calendar,
      datetime: `${MONDAY}T10:00`,
      ...attributes,
    });

    it.each([undefined, null, ''])(
      'required_appointment_type_id when appointmentTypeID is %p',
      async (value) => {
        await expectRefused(
          booking({ appointmentTypeID: value }),
          apiError(
            400,
            'required_appointment_type_id',
            'The parameter "appointmentTypeID" is required.',
          ),
        );
      },
    );

    it.each([MISSING, 'abc', -3, 1.5])('invalid_appointment_type for %p', async (id) => {
      await expectRefused(
        booking({ appointmentTypeID: id, calendarID: undefined }),
        apiError(400, 'invalid_appointment_type', `The appointment type "${id}" does not exist.`),
      );
    });

    it('invalid_appointment_type for a deleted type', async () => {
      const { type: deleted } = await service();
      expect((await api.delete(`/appointment-types/${deleted}`)).status).toBe(204);
      await expectRefused(
        booking({ appointmentTypeID: deleted, calendarID: undefined }),
        apiError(
          400,
          'invalid_appointment_type',
          `The appointment type "${deleted}" does not exist.`,
        ),
      );
    });

    it.each([MISSING, 'abc', 0])('invalid_calendar for %p', async (id) => {
      await expectRefused(
        booking({ calendarID: id }),
        apiError(400, 'invalid_calendar', `The calendar "${id}" does not exist.`),
      );
    });

    it('invalid_calendar for a deleted calendar', async () => {
      const { type: ownType, calendar: deleted } = await service();
      expect((await api.delete(`/calendars/${deleted}`)).status).toBe(204);
      await expectRefused(
        booking({ appointmentTypeID: ownType, calendarID: deleted }),
        apiError(400, 'invalid_calendar', `The calendar "${deleted}" does not exist.`),
      );
    });

    it('403 forbidden for another account type, or another account calendar', async () => {
      const theirCalendar = await createCalendar(other, { hours: HOURS });
      const theirType = await createAppointmentType(other, {
        calendarIDs: [theirCalendar],
        ...HORIZON,
      });
      const forbidden = apiError(403, 'forbidden', 'Forbidden');
      await expectRefused(
        booking({ appointmentTypeID: theirType, calendarID: undefined }),
        forbidden,
      );
      await expectRefused(
        booking({ appointmentTypeID: theirType, calendarID: theirCalendar }),
        forbidden,
      );
      await expectRefused(booking({ calendarID: theirCalendar }), forbidden);
    });

    it.each([undefined, null, ''])('required_datetime when datetime is %p', async (value) => {
      await expectRefused(
        booking({ datetime: value }),
        apiError(400, 'required_datetime', 'The parameter "datetime" is required.'),
      );
    });

    it.each(['Mars/Olympus', 'EST5EDT6', ''])('invalid_timezone for %p', async (timezone) => {
      await expectRefused(
        booking({ timezone }),
        apiError(400, 'invalid_timezone', `Invalid timezone "${timezone}".`),
      );
    });

    it.each([
      'tomorrow',
      '2030-06-03',
      '2030-02-30T10:00',
      '2030-06-03T25:00',
      '2030-06-03T10:00:00+2500',
      '03/06/2030 10:00',
      12345,
    ])('invalid_datetime for %p', async (datetime) => {
      await expectRefused(
        booking({ datetime }),
        apiError(400, 'invalid_datetime', `The datetime "${datetime}" is invalid.`),
      );
    });
  });

  describe('labels', () => {
    it('invalid_labels for more than one label', async () => {
      const { type } = await service();
      const a = await created(api, '/labels', { name: 'Paid', color: '#00ff00' });
      const b = await created(api, '/labels', { name: 'VIP', color: '#ff0000' });
      await expectRefused(
        {
          ...client,
          appointmentTypeID: type,
          datetime: `${MONDAY}T10:00`,
          labels: [{ id: a.id }, { id: b.id }],
        },
        apiError(400, 'invalid_labels', 'Only one label can be applied to an appointment.'),
      );
    });
  });

  describe('availability', () => {
    it('no_available_calendar when no calendar of the type can take the time (no calendarID)', async () => {
      const { type, calendar } = await service();
      const body = { ...client, appointmentTypeID: type };
      const none = apiError(
        400,
        'no_available_calendar',
        'We could not find an available calendar.',
      );
      // Outside the hours (08:00 in New York).
      await expectRefused({ ...body, datetime: `${MONDAY}T08:00:00-0400` }, none);
      await expectRefused({ ...body, datetime: `${MONDAY}T07:00` }, none); // Chicago time
      // Inside them, but taken.
      await expectBooked({ ...body, calendarID: calendar, datetime: `${MONDAY}T10:00` });
      await expectRefused({ ...body, datetime: `${MONDAY}T10:30:00-0400` }, none);
    });

    it('not_available_min_hours_in_advance for a time closer than the type allows', async () => {
      const { type, calendar } = await service({ minHoursInAdvance: 48 });
      const datetime = DateTime.utc()
        .plus({ hours: 24 })
        .startOf('hour')
        .toFormat("yyyy-MM-dd'T'HH:mm:ssZZZ");
      await expectRefused(
        { ...client, appointmentTypeID: type, calendarID: calendar, datetime },
        apiError(
          400,
          'not_available_min_hours_in_advance',
          `The time "${datetime}" is not far enough in advance.`,
        ),
      );
      // A past time is not far enough in advance either.
      await expectRefused(
        { ...client, appointmentTypeID: type, datetime: '2020-06-01T10:00' },
        apiError(
          400,
          'not_available_min_hours_in_advance',
          'The time "2020-06-01T10:00" is not far enough in advance.',
        ),
      );
    });

    it('not_available_max_days_in_advance for a time further than the type allows', async () => {
      const { type, calendar } = await service({ maxDaysInAdvance: 30 });
      await expectRefused(
        {
          ...client,
          appointmentTypeID: type,
          calendarID: calendar,
          datetime: `${MONDAY}T10:00:00-0400`,
        },
        apiError(
          400,
          'not_available_max_days_in_advance',
          `The time "${MONDAY}T10:00:00-0400" is too far in advance.`,
        ),
      );
    });

    it('not_available: outside the hours, off the grid, overlapping a booking, or its padding', async () => {
      const { type, calendar } = await service({ paddingAfter: 15 });
      const body = { ...client, appointmentTypeID: type, calendarID: calendar };
      const refuse = (datetime: string) =>
        expectRefused(
          { ...body, datetime },
          apiError(400, 'not_available', `The time "${datetime}" is not an available time slot.`),
        );
      await refuse(`${MONDAY}T08:45`); // before the hours
      await refuse(`${MONDAY}T16:15`); // its padding runs past 17:00
      await refuse(`${MONDAY}T10:10`); // off the 15-minute grid
      await refuse('2030-06-04T10:00'); // a Tuesday: closed
      await expectBooked({ ...body, datetime: `${MONDAY}T10:00` });
      await refuse(`${MONDAY}T10:00`); // taken
      await refuse(`${MONDAY}T10:30`); // overlaps it
      await refuse(`${MONDAY}T10:45`); // inside its padding
      await refuse(`${MONDAY}T09:15`); // would run into it with its own padding
      await expectBooked({ ...body, datetime: `${MONDAY}T11:00` });
    });

    it('not_available for an appointment longer than a day (24 hours and an addon, on the 25-hour fall-back day)', async () => {
      const addon = await created(api, '/appointment-addons', {
        name: 'One more hour',
        duration: 60,
      });
      const { type, calendar } = await service(
        { duration: 1440, slotInterval: 60, addonIDs: [addon.id] },
        { sunday: [{ start: '00:00', end: '24:00' }] },
      );
      const body = { ...client, appointmentTypeID: type, addonIDs: [addon.id] };
      // Availability offers no such appointment; booking agrees with it.
      expect(
        (
          await api.post('/availability/check-times', {
            ...body,
            calendarID: calendar,
            datetime: '2030-11-03T00:00',
          })
        ).body,
      ).toMatchObject([{ valid: false, reason: 'not_available' }]);
      await expectRefused(
        { ...body, calendarID: calendar, datetime: '2030-11-03T00:00' },
        apiError(
          400,
          'not_available',
          'The time "2030-11-03T00:00" is not an available time slot.',
        ),
      );
      await expectRefused(
        { ...body, datetime: '2030-11-03T00:00:00-0400' },
        apiError(400, 'no_available_calendar', 'We could not find an available calendar.'),
      );
      // The day itself is bookable without the addon.
      expect(
        await expectBooked({
          ...body,
          addonIDs: [],
          calendarID: calendar,
          datetime: '2030-11-03T00:00',
        }),
      ).toMatchObject({ duration: '1440' });
    });

    it('not_available for a local time a DST change skips (2030-03-10T02:30 in New York)', async () => {
      const { type, calendar } = await service(
        { duration: 30, slotInterval: 30 },
        { sunday: [{ start: '00:00', end: '06:00' }] },
      );
      const body = { ...client, appointmentTypeID: type, calendarID: calendar };
      await expectRefused(
        { ...body, datetime: '2030-03-10T02:30' },
        apiError(
          400,
          'not_available',
          'The time "2030-03-10T02:30" is not an available time slot.',
        ),
      );
      // The hours are open around the gap.
      expect(await expectBooked({ ...body, datetime: '2030-03-10T01:30' })).toMatchObject({
        datetime: '2030-03-10T01:30:00-0500',
      });
      expect(await expectBooked({ ...body, datetime: '2030-03-10T03:30' })).toMatchObject({
        datetime: '2030-03-10T03:30:00-0400',
      });
    });
  });

  describe('certificates', () => {
    let type: number;
    let calendar: number;
    let otherType: number;
    beforeAll(async () => {
      ({ type, calendar } = await service());
      otherType = await createAppointmentType(api, { name: 'Shave', calendarIDs: [calendar] });
    });

    const booking = (certificate: string, time: string) => ({
      ...client,
      appointmentTypeID: type,
      calendarID: calendar,
      datetime: `${MONDAY}T${time}`,
      certificate,
    });

    async function packageOf(counts: Record<number, number>, email?: string): Promise<string> {
      const product = await created(api, '/products', {
        name: 'Pack',
        price: 100,
        type: 'appointments',
        appointmentTypeCounts: counts,
      });
      const certificate = await created<{ certificate: string }>(api, '/certificates', {
        productID: product.id,
        ...(email === undefined ? {} : { email }),
      });
      return certificate.certificate;
    }

    it('invalid_certificate for an unknown code, or one that belongs to another e-mail', async () => {
      await expectRefused(
        booking('NO-SUCH-CODE', '10:00'),
        apiError(400, 'invalid_certificate', 'The certificate "NO-SUCH-CODE" is invalid.'),
      );
      const owned = await packageOf({ [type]: 3 }, 'someone@example.com');
      await expectRefused(
        booking(owned, '10:00'),
        apiError(400, 'invalid_certificate', `The certificate "${owned}" is invalid.`),
      );
    });

    it('expired_certificate for a coupon past its last day', async () => {
      const code = freshCode('OLD');
      await created(api, '/coupons', {
        code,
        name: 'Old',
        discountType: 'percentage',
        discountAmount: 10,
        expiration: '2020-01-01',
      });
      await expectRefused(
        booking(code, '10:00'),
        apiError(400, 'expired_certificate', `The certificate "${code}" is expired.`),
      );
    });

    it('invalid_certificate_type for a package or a coupon of another type', async () => {
      const pack = await packageOf({ [otherType]: 2 });
      await expectRefused(
        booking(pack, '10:00'),
        apiError(
          400,
          'invalid_certificate_type',
          `The certificate "${pack}" is invalid for appointment type "${type}".`,
        ),
      );
      const code = freshCode('SHAVE');
      await created(api, '/coupons', {
        code,
        name: 'Shaves',
        discountType: 'price',
        discountAmount: 5,
        appointmentTypeIDs: [otherType],
      });
      await expectRefused(
        booking(code, '10:00'),
        apiError(
          400,
          'invalid_certificate_type',
          `The certificate "${code}" is invalid for appointment type "${type}".`,
        ),
      );
    });

    it('certificate_uses once the package uses for the type are spent', async () => {
      const pack = await packageOf({ [type]: 1 });
      expect(await expectBooked(booking(pack, '10:00'))).toMatchObject({
        certificate: pack,
        priceSold: '0.00',
      });
      await expectRefused(
        booking(pack, '11:00'),
        apiError(
          400,
          'certificate_uses',
          `The certificate "${pack}" has no remaining uses for appointment type "${type}".`,
        ),
      );
    });
  });

  describe('lenient datetime shapes', () => {
    it.each([
      ['+hhmm', '2030-06-03T10:00:00-0400', true, '2030-06-03T10:00:00-0400'],
      ['another +hhmm', '2030-06-03T17:00:00+0200', true, '2030-06-03T11:00:00-0400'],
      ['+hh:mm', '2030-06-03T12:00:00-04:00', true, '2030-06-03T12:00:00-0400'],
      ['Z', '2030-06-03T17:00:00Z', true, '2030-06-03T13:00:00-0400'],
      ['no offset, in the calendar zone', '2030-06-03T14:00:00', true, '2030-06-03T14:00:00-0400'],
      // America/Chicago, the account's zone: 14:00 there is 15:00 in New York.
      [
        'no offset, no calendar: the account zone',
        '2030-06-03T14:00',
        false,
        '2030-06-03T15:00:00-0400',
      ],
      ['a space for the T', '2030-06-03 16:00:00-0400', true, '2030-06-03T16:00:00-0400'],
      ['a space, no seconds, no offset', '2030-06-03 09:00', true, '2030-06-03T09:00:00-0400'],
      ['no seconds', '2030-06-03T15:00-0400', true, '2030-06-03T15:00:00-0400'],
    ])('books %s (%s)', async (_, datetime, withCalendar, shown) => {
      const { type, calendar } = await service();
      const booked = await expectBooked({
        ...client,
        appointmentTypeID: type,
        ...(withCalendar ? { calendarID: calendar } : {}),
        datetime,
      });
      expect(booked).toMatchObject({ datetime: shown, calendarID: calendar });
    });
  });

  describe('precedence: a body wrong in several ways gets the first error', () => {
    let type: number;
    let calendar: number;
    let field: number;

    beforeAll(async () => {
      const form = await created<{ id: number; fields: { id: number }[] }>(api, '/forms', {
        name: 'Intake',
        fields: [{ name: 'Full name', type: 'textbox', required: true }],
      });
      field = form.fields[0].id;
      ({ type, calendar } = await service({ formIDs: [form.id] }));
    });

    const valid = () => ({
      ...client,
      appointmentTypeID: type,
      calendarID: calendar,
      datetime: `${MONDAY}T10:00`,
      fields: [{ id: field, value: 'Ada' }],
    });

    it.each<[string, Record<string, unknown>, string, () => string]>([
      [
        'missing firstName and an unknown type',
        { firstName: undefined, appointmentTypeID: MISSING },
        'required_first_name',
        () => 'Attribute "firstName" is required.',
      ],
      [
        'a bad e-mail and no type',
        { email: 'nope', appointmentTypeID: undefined },
        'invalid_email',
        () => 'Invalid "email" attribute value.',
      ],
      [
        'no type and no datetime',
        { appointmentTypeID: undefined, datetime: undefined },
        'required_appointment_type_id',
        () => 'The parameter "appointmentTypeID" is required.',
      ],
      [
        'an unknown type and a bad datetime',
        { appointmentTypeID: MISSING, datetime: 'soon' },
        'invalid_appointment_type',
        () => `The appointment type "${MISSING}" does not exist.`,
      ],
      [
        'an unknown calendar and a bad timezone',
        { calendarID: MISSING, timezone: 'Nowhere/Land' },
        'invalid_calendar',
        () => `The calendar "${MISSING}" does not exist.`,
      ],
      [
        'a bad timezone and a bad datetime',
        { timezone: 'Nowhere/Land', datetime: 'soon' },
        'invalid_timezone',
        () => 'Invalid timezone "Nowhere/Land".',
      ],
      [
        'a bad datetime and an unknown field',
        { datetime: 'soon', fields: [{ id: MISSING, value: 'x' }] },
        'invalid_datetime',
        () => 'The datetime "soon" is invalid.',
      ],
      [
        'an unknown field and an unavailable time',
        { datetime: `${MONDAY}T08:00`, fields: [{ id: MISSING, value: 'x' }] },
        'invalid_fields',
        () => `The field "${MISSING}" does not exist on this appointment.`,
      ],
      [
        'an unknown field and a DST-skipped time',
        { datetime: '2030-03-10T02:30', fields: [{ id: MISSING, value: 'x' }] },
        'invalid_fields',
        () => `The field "${MISSING}" does not exist on this appointment.`,
      ],
      [
        'a missing required field and two labels',
        { fields: [], labels: [{ id: MISSING }, { id: MISSING }] },
        'required_field',
        () => `The field "${field}" is required.`,
      ],
      [
        'two labels and an unavailable time',
        { datetime: `${MONDAY}T08:00`, labels: [{ id: MISSING }, { id: MISSING }] },
        'invalid_labels',
        () => 'Only one label can be applied to an appointment.',
      ],
      [
        'an unavailable time and an unknown certificate',
        { datetime: `${MONDAY}T08:00`, certificate: 'NO-SUCH-CODE' },
        'not_available',
        () => `The time "${MONDAY}T08:00" is not an available time slot.`,
      ],
      [
        'no free calendar and an unknown certificate',
        {
          calendarID: undefined,
          datetime: `${MONDAY}T08:00:00-0400`,
          certificate: 'NO-SUCH-CODE',
        },
        'no_available_calendar',
        () => 'We could not find an available calendar.',
      ],
      [
        'a past time and an unknown certificate',
        { datetime: '2020-06-01T10:00', certificate: 'NO-SUCH-CODE' },
        'not_available_min_hours_in_advance',
        () => 'The time "2020-06-01T10:00" is not far enough in advance.',
      ],
    ])('%s → %s', async (_, wrong, error, message) => {
      await expectRefused({ ...valid(), ...wrong }, apiError(400, error, message()));
    });

    it('the valid body books', async () => {
      expect(await expectBooked({ ...valid(), datetime: `${MONDAY}T12:00` })).toMatchObject({
        datetime: `${MONDAY}T12:00:00-0400`,
      });
    });
  });
});
