import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { type ApiClient, type ApiResponse, apiClient, apiError } from '../support/api-client';
import { createAddon, createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { type TestAccount, createAccount, startApi } from '../support/test-app';

/** Monday 2030-06-03 in New York (-0400); types look 10 years ahead so that it is bookable. */
const MONDAY = '2030-06-03';
const HORIZON = { maxDaysInAdvance: 3650 };
const HOURS = { monday: [{ start: '09:00', end: '17:00' }] };

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

/** A booking that must succeed: on failure the error shows. */
function booked(res: ApiResponse): Record<string, unknown> {
  expect({ status: res.status, body: res.status === 200 ? 'booked' : res.body }).toEqual({
    status: 200,
    body: 'booked',
  });
  return res.body as Record<string, unknown>;
}

describe('POST /appointments: admin, noEmail and what a booking carries (e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let account: TestAccount;
  let api: ApiClient;
  let ownerEmail: string;

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
    account = await createAccount(app, { timezone: 'America/Chicago' });
    api = apiClient(app, account);
    ownerEmail = ((await api.get('/me')).body as { email: string }).email;
  });

  afterAll(() => app.close());

  async function service(
    attributes: Record<string, unknown> = {},
    calendar: Record<string, unknown> = {},
  ) {
    const calendarId = await createCalendar(api, {
      name: 'Alex',
      location: '5th Avenue',
      timezone: 'America/New_York',
      hours: HOURS,
      ...calendar,
    });
    const type = await createAppointmentType(api, {
      name: 'Haircut',
      category: 'Hair',
      duration: 45,
      price: '40.00',
      slotInterval: 15,
      calendarIDs: [calendarId],
      ...HORIZON,
      ...attributes,
    });
    return { calendar: calendarId, type };
  }

  const client = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' };

  /** The outbox rows of an appointment, oldest first. */
  async function events(appointmentId: number): Promise<{ type: string; payload: unknown }[]> {
    const rows = await db.query<{ type: string; payload: unknown }[]>(
      "SELECT type, payload FROM outbox WHERE JSON_VALUE(payload, '$.appointmentId') = ? ORDER BY id",
      [appointmentId],
    );
    // MariaDB keeps JSON as text; MySQL hands it over parsed.
    return rows.map((r) => ({
      type: r.type,
      payload: typeof r.payload === 'string' ? (JSON.parse(r.payload) as unknown) : r.payload,
    }));
  }

  describe('admin=true', () => {
    it('books outside the hours, without e-mail, on a taken slot; keeps notes; scheduledBy is the owner', async () => {
      const { calendar, type } = await service();
      const taken = booked(
        await api.post('/appointments', {
          ...client,
          appointmentTypeID: type,
          calendarID: calendar,
          datetime: `${MONDAY}T10:00`,
        }),
      );
      expect(taken.scheduledBy).toBeNull();

      const outside = booked(
        await api.post('/appointments?admin=true', {
          firstName: 'Bob',
          lastName: 'Admin',
          appointmentTypeID: type,
          calendarID: calendar,
          datetime: `${MONDAY}T20:10`,
          notes: 'Walk-in after hours',
        }),
      );
      expect(outside).toMatchObject({
        firstName: 'Bob',
        lastName: 'Admin',
        email: '',
        phone: '',
        datetime: `${MONDAY}T20:10:00-0400`,
        time: '8:10pm',
        endTime: '8:55pm',
        notes: 'Walk-in after hours',
        scheduledBy: ownerEmail,
      });

      const doubled = booked(
        await api.post('/appointments?admin=true', {
          ...client,
          appointmentTypeID: type,
          calendarID: calendar,
          datetime: `${MONDAY}T10:00`,
        }),
      );
      expect(doubled).toMatchObject({
        datetime: `${MONDAY}T10:00:00-0400`,
        scheduledBy: ownerEmail,
      });

      // A past time, a closed day: the admin is not checked.
      const past = {
        ...client,
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: '2020-06-06T23:00',
      };
      booked(await api.post('/appointments?admin=true', past));
      // But an e-mail given is one address, whoever books (issue 20: a mailer reads a list).
      expect(
        await api.post('/appointments?admin=true', { ...past, email: 'not-an-email' }),
      ).toMatchObject(apiError(400, 'invalid_email', 'Invalid "email" attribute value.'));
      expect((await api.get(`/appointments/${outside.id as number}`)).body).toEqual(outside);
    });

    it('skips the required fields of forms', async () => {
      const form = await created<{ id: number; fields: { id: number }[] }>(api, '/forms', {
        name: 'Intake',
        fields: [{ name: 'Full name', type: 'textbox', required: true }],
      });
      const { calendar, type } = await service({ formIDs: [form.id] });
      const body = { ...client, appointmentTypeID: type, calendarID: calendar };
      expect(
        await api.post('/appointments', { ...body, datetime: `${MONDAY}T10:00` }),
      ).toMatchObject(
        apiError(400, 'required_field', `The field "${form.fields[0].id}" is required.`),
      );
      expect(
        booked(
          await api.post('/appointments?admin=true', { ...body, datetime: `${MONDAY}T10:00` }),
        ),
      ).toMatchObject({ forms: [], formsText: '' });
    });

    it('ignores notes from a client', async () => {
      const { calendar, type } = await service();
      const res = booked(
        await api.post('/appointments', {
          ...client,
          appointmentTypeID: type,
          calendarID: calendar,
          datetime: `${MONDAY}T10:00`,
          notes: 'Let me in early',
        }),
      );
      expect(res.notes).toBe('');
    });

    it('refuses an appointment longer than a day, addons included: it would escape the bounded busy reads', async () => {
      const allDay = [{ start: '00:00', end: '24:00' }];
      const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
      const addon = await createAddon(api, { name: 'One more hour', duration: 60 });
      const { calendar, type } = await service(
        {
          duration: 1440,
          slotInterval: 60,
          paddingBefore: 1440,
          paddingAfter: 1440,
          addonIDs: [addon],
        },
        { hours: Object.fromEntries(days.map((d) => [d, allDay])) },
      );
      const body = { ...client, appointmentTypeID: type, calendarID: calendar };
      expect(
        await api.post('/appointments?admin=true', {
          ...body,
          datetime: `${MONDAY}T00:00`,
          addonIDs: [addon],
        }),
      ).toMatchObject(
        apiError(
          400,
          'invalid_addon_ids',
          'An appointment lasts at most 1440 minutes, addons included.',
        ),
      );
      // Without the addon it is a day long: booked, and its padding keeps the calendar busy.
      expect(
        booked(
          await api.post('/appointments?admin=true', { ...body, datetime: `${MONDAY}T00:00` }),
        ),
      ).toMatchObject({ duration: '1440', endTime: '12:00am' });
      const short = await createAppointmentType(api, {
        duration: 30,
        calendarIDs: [calendar],
        ...HORIZON,
      });
      expect(
        await api.post('/appointments', {
          ...client,
          appointmentTypeID: short,
          calendarID: calendar,
          datetime: '2030-06-04T23:30',
        }),
      ).toMatchObject(
        apiError(
          400,
          'not_available',
          'The time "2030-06-04T23:30" is not an available time slot.',
        ),
      );
    });

    it('requires calendarID: 400 required_calendar_id', async () => {
      const { type } = await service();
      for (const calendarID of [undefined, null, ''])
        expect(
          await api.post('/appointments?admin=true', {
            ...client,
            appointmentTypeID: type,
            calendarID,
            datetime: `${MONDAY}T10:00`,
          }),
        ).toMatchObject(
          apiError(400, 'required_calendar_id', 'The parameter "calendarID" is required.'),
        );
    });
  });

  describe('noEmail', () => {
    it.each([
      ['noEmail=true', '?noEmail=true', true],
      ['admin and noEmail', '?admin=true&noEmail=true', true],
      ['no flag', '', false],
    ])('%s: the scheduled and changed events carry noEmail', async (_, query, noEmail) => {
      const { calendar, type } = await service();
      const res = booked(
        await api.post(`/appointments${query}`, {
          ...client,
          appointmentTypeID: type,
          calendarID: calendar,
          datetime: `${MONDAY}T10:00`,
        }),
      );
      const payload = {
        appointmentId: res.id,
        calendarId: calendar,
        appointmentTypeId: type,
        noEmail,
      };
      expect(await events(res.id as number)).toEqual([{ type: 'appointment.scheduled', payload }]);
    });
  });

  describe('client bookings', () => {
    it('without calendarID, picks a free calendar of the type', async () => {
      const first = await createCalendar(api, { name: 'First', hours: HOURS });
      const second = await createCalendar(api, { name: 'Second', hours: HOURS });
      const type = await createAppointmentType(api, {
        duration: 45,
        slotInterval: 15,
        calendarIDs: [first, second],
        ...HORIZON,
      });
      const body = { ...client, appointmentTypeID: type, datetime: `${MONDAY}T10:00:00-0400` };
      booked(await api.post('/appointments', { ...body, calendarID: first }));
      expect(booked(await api.post('/appointments', body))).toMatchObject({
        calendarID: second,
        calendar: 'Second',
      });
      expect(await api.post('/appointments', body)).toMatchObject(
        apiError(400, 'no_available_calendar', 'We could not find an available calendar.'),
      );
      // At 11:00 both are free again: the first (ascending id) takes it.
      expect(
        booked(await api.post('/appointments', { ...body, datetime: `${MONDAY}T11:00:00-0400` })),
      ).toMatchObject({ calendarID: first });
    });

    it('addons lengthen the appointment, add their price, and count in availability', async () => {
      const addon = await createAddon(api, { name: 'Beard trim', duration: 15, price: '12.50' });
      const { calendar, type } = await service({ addonIDs: [addon] });
      const body = { ...client, appointmentTypeID: type, calendarID: calendar };
      const res = booked(
        await api.post('/appointments', {
          ...body,
          datetime: `${MONDAY}T10:00`,
          addonIDs: [addon],
        }),
      );
      expect(res).toMatchObject({
        addonIDs: [addon],
        duration: '60',
        time: '10:00am',
        endTime: '11:00am',
        price: '52.50',
        priceSold: '52.50',
      });
      // The addon's quarter is busy: 10:45 is taken, 11:00 free.
      expect(
        await api.post('/appointments', { ...body, datetime: `${MONDAY}T10:45` }),
      ).toMatchObject(
        apiError(400, 'not_available', `The time "${MONDAY}T10:45" is not an available time slot.`),
      );
      // 16:15 fits 45 minutes before 17:00, not 60.
      expect(
        await api.post('/appointments', {
          ...body,
          datetime: `${MONDAY}T16:15`,
          addonIDs: addon,
        }),
      ).toMatchObject(
        apiError(400, 'not_available', `The time "${MONDAY}T16:15" is not an available time slot.`),
      );
      expect(
        booked(await api.post('/appointments', { ...body, datetime: `${MONDAY}T16:15` })),
      ).toMatchObject({ duration: '45', endTime: '5:00pm', addonIDs: [] });
      expect(
        booked(await api.post('/appointments', { ...body, datetime: `${MONDAY}T11:00` })),
      ).toMatchObject({ time: '11:00am' });
    });

    it('shows its label, keeps smsOptIn, and shows form answers in forms and formsText', async () => {
      const label = await created<{ id: number; name: string; color: string }>(api, '/labels', {
        name: 'VIP',
        color: '#ff9900',
      });
      const form = await created<{ id: number; fields: { id: number }[] }>(api, '/forms', {
        name: 'Intake',
        fields: [
          { name: 'Full name', type: 'textbox', required: true },
          { name: 'Days', type: 'checkboxlist', options: ['Mon', 'Tue', 'Wed'] },
          { name: 'First visit?', type: 'yesno' },
          { name: 'Left empty', type: 'textbox' },
        ],
      });
      const [name, days, first] = form.fields.map((f) => f.id);
      const { calendar, type } = await service({ formIDs: [form.id], requireSmsOptIn: true });
      const res = booked(
        await api.post('/appointments', {
          ...client,
          appointmentTypeID: type,
          calendarID: calendar,
          datetime: `${MONDAY}T10:00`,
          labels: [{ id: label.id }],
          smsOptIn: true,
          fields: [
            { id: first, value: true },
            { id: name, value: ' Ada King ' },
            { id: days, value: 'Mon, Wed' },
          ],
        }),
      );
      expect(res).toMatchObject({
        labels: [{ id: label.id, name: 'VIP', color: '#ff9900' }],
        forms: [
          {
            id: form.id,
            name: 'Intake',
            values: [
              { id: name, fieldID: name, name: 'Full name', value: 'Ada King' },
              { id: days, fieldID: days, name: 'Days', value: 'Mon, Wed' },
              { id: first, fieldID: first, name: 'First visit?', value: 'yes' },
            ],
          },
        ],
        formsText: 'Intake\n======\nFull name: Ada King\nDays: Mon, Wed\nFirst visit?: yes',
      });
      const [row] = await db.query<{ smsOptIn: number | string }[]>(
        'SELECT sms_opt_in AS smsOptIn FROM appointments WHERE id = ?',
        [res.id],
      );
      expect(Number(row.smsOptIn)).toBe(1);
      expect((await api.get(`/appointments/${res.id as number}`)).body).toEqual(res);
    });

    it('a package certificate takes a use and makes the price sold 0.00', async () => {
      const { calendar, type } = await service();
      const product = await created(api, '/products', {
        name: 'Three cuts',
        price: 100,
        type: 'appointments',
        appointmentTypeCounts: { [type]: 3 },
      });
      const certificate = await created<{ id: number; certificate: string }>(api, '/certificates', {
        productID: product.id,
      });
      const res = booked(
        await api.post('/appointments', {
          ...client,
          appointmentTypeID: type,
          calendarID: calendar,
          datetime: `${MONDAY}T10:00`,
          certificate: certificate.certificate.toLowerCase(),
        }),
      );
      expect(res).toMatchObject({
        certificate: certificate.certificate,
        price: '40.00',
        priceSold: '0.00',
        amountPaid: '0.00',
      });
      expect((await api.get(`/certificates/${certificate.id}`)).body).toMatchObject({
        remainingCounts: { [type]: 2 },
      });
    });

    it.each([
      ['percentage', '10.00', '36.00'],
      ['price', '15.00', '25.00'],
      ['price', '55.00', '0.00'],
    ])('a %s coupon of %s lowers the price sold to %s', async (discountType, amount, sold) => {
      const { calendar, type } = await service();
      const code = `SAVE-${type}`;
      await created(api, '/coupons', {
        code,
        name: 'Save',
        discountType,
        discountAmount: amount,
        appointmentTypeIDs: [type],
      });
      expect(
        booked(
          await api.post('/appointments', {
            ...client,
            appointmentTypeID: type,
            calendarID: calendar,
            datetime: `${MONDAY}T10:00`,
            certificate: code,
          }),
        ),
      ).toMatchObject({ certificate: code, price: '40.00', priceSold: sold });
    });
  });

  describe('formats', () => {
    it('on the fall-back day, both 1:30am of New York (2030-11-03), by their offsets', async () => {
      const { calendar, type } = await service(
        { duration: 45, slotInterval: 30 },
        { hours: { sunday: [{ start: '00:00', end: '04:00' }] } },
      );
      const body = { ...client, appointmentTypeID: type, calendarID: calendar };
      const daylight = booked(
        await api.post('/appointments', { ...body, datetime: '2030-11-03T01:30:00-0400' }),
      );
      const standard = booked(
        await api.post('/appointments', { ...body, datetime: '2030-11-03T01:30:00-05:00' }),
      );
      expect(daylight).toMatchObject({
        date: 'November 3, 2030',
        datetime: '2030-11-03T01:30:00-0400',
        time: '1:30am',
        // 45 minutes later the clocks have gone back.
        endTime: '1:15am',
        duration: '45',
        timezone: 'America/New_York',
      });
      expect(standard).toMatchObject({
        date: 'November 3, 2030',
        datetime: '2030-11-03T01:30:00-0500',
        time: '1:30am',
        endTime: '2:15am',
        duration: '45',
      });
    });

    it('in a +05:45 zone (Kathmandu): the offset and the local times', async () => {
      const { calendar, type } = await service({}, { timezone: 'Asia/Kathmandu' });
      const res = booked(
        await api.post('/appointments', {
          ...client,
          appointmentTypeID: type,
          calendarID: calendar,
          datetime: `${MONDAY}T10:15`,
        }),
      );
      expect(res).toMatchObject({
        date: 'June 3, 2030',
        datetime: `${MONDAY}T10:15:00+0545`,
        time: '10:15am',
        endTime: '11:00am',
        timezone: 'Asia/Kathmandu',
        calendarTimezone: 'Asia/Kathmandu',
      });
      // The same moment, sent in UTC.
      const utc = booked(
        await api.post('/appointments', {
          ...client,
          appointmentTypeID: type,
          calendarID: calendar,
          datetime: `${MONDAY}T06:30:00Z`,
        }),
      );
      expect(utc).toMatchObject({ datetime: `${MONDAY}T12:15:00+0545`, time: '12:15pm' });
    });

    it('with the client timezone given: the times are shown in it', async () => {
      const { calendar, type } = await service();
      const res = booked(
        await api.post('/appointments', {
          ...client,
          appointmentTypeID: type,
          calendarID: calendar,
          datetime: `${MONDAY}T16:00:00-0400`,
          timezone: 'Asia/Tokyo',
        }),
      );
      expect(res).toMatchObject({
        date: 'June 4, 2030',
        datetime: '2030-06-04T05:00:00+0900',
        time: '5:00am',
        endTime: '5:45am',
        timezone: 'Asia/Tokyo',
        calendarTimezone: 'America/New_York',
        dateCreated: expect.stringMatching(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/),
        datetimeCreated: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0900$/),
      });
    });
  });
});
