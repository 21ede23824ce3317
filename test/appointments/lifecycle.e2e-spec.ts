import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAddon, createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';

/** Mondays in New York (-0400); types look 10 years ahead so that they are bookable. */
const MONDAY = '2030-06-03';
const NEXT_MONDAY = '2030-06-10';
const HORIZON = { maxDaysInAdvance: 3650 };
const HOURS = { monday: [{ start: '09:00', end: '17:00' }] };
const client = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' };

interface AppointmentBody {
  id: number;
  [attribute: string]: unknown;
}

interface OutboxRow {
  type: string;
  payload: Record<string, unknown>;
}

describe('Appointment lifecycle: list, update, cancel, reschedule (e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let api: ApiClient;
  let stranger: ApiClient;

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
    api = apiClient(app, await createAccount(app, { timezone: 'America/Chicago' }));
    stranger = apiClient(app, await createAccount(app));
  });

  afterAll(() => app.close());

  async function service(
    attributes: Record<string, unknown> = {},
    owner: ApiClient = api,
    calendarAttributes: Record<string, unknown> = {},
  ) {
    const calendar = await createCalendar(owner, {
      name: 'Alex',
      timezone: 'America/New_York',
      hours: HOURS,
      ...calendarAttributes,
    });
    const type = await createAppointmentType(owner, {
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

  /** Books through POST /appointments; fails the test loudly when refused. */
  async function book(body: Record<string, unknown>, query = '', owner: ApiClient = api) {
    const res = await owner.post(`/appointments${query}`, { ...client, ...body });
    if (res.status !== 200) throw new Error(`booking → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as AppointmentBody;
  }

  const get = async (id: number, owner: ApiClient = api) =>
    (await owner.get(`/appointments/${id}`)).body as AppointmentBody;

  /** The times /availability/times offers on `date` (local `HH:mm`). */
  async function offered(type: number, calendar: number, date = MONDAY): Promise<string[]> {
    const res = await api.get(
      `/availability/times?date=${date}&appointmentTypeID=${type}&calendarID=${calendar}`,
    );
    expect(res.status).toBe(200);
    return (res.body as { time: string }[]).map((t) => t.time.slice(11, 16));
  }

  async function outboxOf(id: number): Promise<OutboxRow[]> {
    const rows = await db.query<{ type: string; payload: string | Record<string, unknown> }[]>(
      "SELECT type, payload FROM outbox WHERE JSON_VALUE(payload, '$.appointmentId') = ? ORDER BY id",
      [id],
    );
    return rows.map((row) => ({
      type: row.type,
      payload: (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as Record<
        string,
        unknown
      >,
    }));
  }

  const payload = (a: AppointmentBody, noEmail = false) => ({
    appointmentId: a.id,
    calendarId: a.calendarID,
    appointmentTypeId: a.appointmentTypeID,
    noEmail,
  });

  async function packageFor(type: number, uses: number) {
    const product = await api.post('/products', {
      name: `Pack of ${uses}`,
      price: 100,
      type: 'appointments',
      appointmentTypeCounts: { [type]: uses },
    });
    const issued = await api.post('/certificates', {
      productID: (product.body as { id: number }).id,
    });
    expect(issued.status).toBe(200);
    return issued.body as { id: number; certificate: string };
  }

  const remainingUses = async (certificate: number) =>
    ((await api.get(`/certificates/${certificate}`)).body as { remainingCounts: object })
      .remainingCounts;

  describe('GET /appointments', () => {
    let lister: ApiClient;
    let calendar: number;
    let second: number;
    let haircut: number;
    let shave: number;
    let referral: number;
    let a1: AppointmentBody;
    let a2: AppointmentBody;
    let a3: AppointmentBody;
    let a4: AppointmentBody;

    /** The ids listed for `query`. */
    const ids = async (query: string) => {
      const res = await lister.get(`/appointments${query}`);
      expect({ status: res.status, error: res.status === 200 ? undefined : res.body }).toEqual({
        status: 200,
        error: undefined,
      });
      return (res.body as AppointmentBody[]).map((a) => a.id);
    };

    beforeAll(async () => {
      lister = apiClient(app, await createAccount(app, { timezone: 'America/Chicago' }));
      const form = await lister.post('/forms', {
        name: 'Intake',
        fields: [{ name: 'Referral', type: 'textbox' }],
      });
      referral = (form.body as { fields: { id: number }[] }).fields[0].id;
      const formId = (form.body as { id: number }).id;
      ({ calendar, type: haircut } = await service({ formIDs: [formId] }, lister));
      ({ calendar: second, type: shave } = await service({ name: 'Shave' }, lister, {
        name: 'Second',
      }));
      const at = (datetime: string) => ({
        appointmentTypeID: haircut,
        calendarID: calendar,
        datetime,
      });
      a1 = await book(
        { ...at(`${MONDAY}T10:00`), fields: [{ id: referral, value: 'Newspaper' }] },
        '',
        lister,
      );
      a2 = await book(
        {
          ...at(`${MONDAY}T14:00`),
          firstName: 'Grace',
          lastName: 'Hopper',
          email: 'grace@example.com',
          phone: '555-0101',
        },
        '',
        lister,
      );
      a3 = await book(
        { appointmentTypeID: shave, calendarID: second, datetime: `${NEXT_MONDAY}T09:00` },
        '',
        lister,
      );
      // An admin places it outside the hours: Wednesday 00:30 in New York, Tuesday 23:30 in Chicago.
      a4 = await book(
        {
          ...at('2030-06-05T00:30'),
          firstName: 'Alan',
          lastName: 'Turing',
          email: 'alan@example.com',
        },
        '?admin=true',
        lister,
      );
      expect((await lister.put(`/appointments/${a2.id}/cancel`)).status).toBe(200);
    });

    it('lists the live ones, latest first, as GET /appointments/{id} shows each', async () => {
      const res = await lister.get('/appointments');
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        await get(a3.id, lister),
        await get(a4.id, lister),
        await get(a1.id, lister),
      ]);
      // The reference's URL template, with its empty parameters, means the defaults.
      expect(
        await ids(
          '?max=&minDate=&maxDate=&calendarID=&appointmentTypeID=&canceled=&firstName=&lastName=' +
            '&email=&phone=&excludeForms=&direction=&showall=',
        ),
      ).toEqual([a3.id, a4.id, a1.id]);
      expect(await ids('?max=100&canceled=false&direction=DESC')).toEqual([a3.id, a4.id, a1.id]);
      // Another account sees none of them.
      expect((await stranger.get('/appointments')).body).toEqual([]);
    });

    it('canceled=true lists the canceled ones only, showall=true both', async () => {
      expect(await ids('?canceled=true')).toEqual([a2.id]);
      expect(await ids('?showall=true')).toEqual([a3.id, a4.id, a2.id, a1.id]);
      expect(await ids('?showall=true&canceled=true')).toEqual([a3.id, a4.id, a2.id, a1.id]);
      const [canceled] = (await lister.get('/appointments?canceled=true'))
        .body as AppointmentBody[];
      expect(canceled).toMatchObject({ id: a2.id, canceled: true });
    });

    it('direction=ASC lists the earliest first; max bounds the page', async () => {
      expect(await ids('?direction=ASC')).toEqual([a1.id, a4.id, a3.id]);
      expect(await ids('?direction=asc&showall=true')).toEqual([a1.id, a2.id, a4.id, a3.id]);
      expect(await ids('?max=1')).toEqual([a3.id]);
      expect(await ids('?max=2&direction=ASC')).toEqual([a1.id, a4.id]);
      expect(await ids('?max=1000')).toEqual([a3.id, a4.id, a1.id]);
    });

    it("reads minDate/maxDate inclusively in the account's zone, or the calendar's", async () => {
      // a4 starts on Tuesday 2030-06-04 in Chicago (the account), Wednesday in New York.
      expect(await ids('?minDate=2030-06-04&maxDate=2030-06-04')).toEqual([a4.id]);
      expect(await ids('?minDate=2030-06-05&maxDate=2030-06-05')).toEqual([]);
      expect(await ids(`?minDate=2030-06-05&maxDate=2030-06-05&calendarID=${calendar}`)).toEqual([
        a4.id,
      ]);
      expect(await ids(`?minDate=2030-06-04&maxDate=2030-06-04&calendarID=${calendar}`)).toEqual(
        [],
      );
      expect(await ids(`?minDate=${MONDAY}&maxDate=${MONDAY}`)).toEqual([a1.id]);
      expect(await ids('?minDate=2030-06-04')).toEqual([a3.id, a4.id]);
      expect(await ids(`?maxDate=${MONDAY}&showall=true`)).toEqual([a2.id, a1.id]);
      expect(await ids(`?minDate=${NEXT_MONDAY}&maxDate=2999-12-31`)).toEqual([a3.id]);
    });

    it('filters by calendar, type, client and form answer', async () => {
      expect(await ids(`?calendarID=${second}`)).toEqual([a3.id]);
      expect(await ids(`?calendarID=${calendar}`)).toEqual([a4.id, a1.id]);
      expect(await ids(`?appointmentTypeID=${shave}`)).toEqual([a3.id]);
      expect(await ids(`?appointmentTypeID=${haircut}&showall=true`)).toEqual([
        a4.id,
        a2.id,
        a1.id,
      ]);
      expect(await ids('?firstName=ada')).toEqual([a3.id, a1.id]);
      expect(await ids('?lastName=Turing')).toEqual([a4.id]);
      expect(await ids('?email=ADA@example.com')).toEqual([a3.id, a1.id]);
      expect(await ids('?phone=555-0101')).toEqual([]);
      expect(await ids('?phone=555-0101&showall=true')).toEqual([a2.id]);
      expect(await ids(`?field:${referral}=Newspaper`)).toEqual([a1.id]);
      expect(await ids(`?field:${referral}=Radio`)).toEqual([]);
      expect(await ids(`?field:${referral}=Newspaper&firstName=Grace`)).toEqual([]);
    });

    it('excludeForms=true shows no forms (default: the answers)', async () => {
      const [withForms] = (
        await lister.get(`/appointments?calendarID=${calendar}&max=1&direction=ASC`)
      ).body as AppointmentBody[];
      expect(withForms).toMatchObject({
        id: a1.id,
        forms: [
          {
            name: 'Intake',
            values: [{ id: referral, fieldID: referral, name: 'Referral', value: 'Newspaper' }],
          },
        ],
        formsText: 'Intake\n======\nReferral: Newspaper',
      });
      const [without] = (
        await lister.get(
          `/appointments?calendarID=${calendar}&max=1&direction=ASC&excludeForms=true`,
        )
      ).body as AppointmentBody[];
      expect(without).toEqual({ ...withForms, forms: [], formsText: '' });
    });

    it.each([
      ['max=0', 'invalid_max', 'Invalid "max" attribute value.'],
      ['max=1001', 'invalid_max', 'Invalid "max" attribute value.'],
      ['max=ten', 'invalid_max', 'Invalid "max" attribute value.'],
      ['minDate=2030-02-30', 'invalid_min_date', 'Invalid "minDate" attribute value.'],
      ['maxDate=06/03/2030', 'invalid_max_date', 'Invalid "maxDate" attribute value.'],
      [
        'minDate=2030-06-05&maxDate=2030-06-04',
        'invalid_max_date',
        'The maxDate "2030-06-04" is before the minDate "2030-06-05".',
      ],
      ['calendarID=abc', 'invalid_calendar_id', 'Invalid "calendarID" attribute value.'],
      ['calendarID=2147483000', 'invalid_calendar', 'The calendar "2147483000" does not exist.'],
      [
        'appointmentTypeID=2147483000',
        'invalid_appointment_type',
        'The appointment type "2147483000" does not exist.',
      ],
      [
        'appointmentTypeID=-1',
        'invalid_appointment_type_id',
        'Invalid "appointmentTypeID" attribute value.',
      ],
      ['canceled=maybe', 'invalid_canceled', 'Invalid "canceled" attribute value.'],
      ['showall=yes', 'invalid_showall', 'Invalid "showall" attribute value.'],
      ['excludeForms=2', 'invalid_exclude_forms', 'Invalid "excludeForms" attribute value.'],
      ['direction=sideways', 'invalid_direction', 'Invalid "direction" attribute value.'],
      ['firstName=a&firstName=b', 'invalid_first_name', 'Invalid "firstName" attribute value.'],
      ['field:abc=1', 'invalid_field', 'Invalid "field:abc" parameter value.'],
      ['field:0=1', 'invalid_field', 'Invalid "field:0" parameter value.'],
    ])('?%s → 400 %s', async (query, error, message) => {
      expect(await lister.get(`/appointments?${query}`)).toMatchObject(
        apiError(400, error, message),
      );
    });

    it("another account's calendar or type is 403", async () => {
      const theirs = await service({}, stranger);
      expect(await lister.get(`/appointments?calendarID=${theirs.calendar}`)).toMatchObject(
        apiError(403, 'forbidden', 'Forbidden'),
      );
      expect(await lister.get(`/appointments?appointmentTypeID=${theirs.type}`)).toMatchObject(
        apiError(403, 'forbidden', 'Forbidden'),
      );
    });
  });

  describe('PUT /appointments/{id}', () => {
    let calendar: number;
    let type: number;
    let formId: number;
    let hiddenFormId: number;
    let referral: number;
    let size: number;
    let internal: number;
    let label: { id: number; name: string; color: string };
    let otherLabel: number;

    beforeAll(async () => {
      const form = await api.post('/forms', {
        name: 'Intake',
        fields: [
          { name: 'Referral', type: 'textbox' },
          { name: 'Size', type: 'dropdown', options: ['Small', 'Large'], required: true },
        ],
      });
      formId = (form.body as { id: number }).id;
      [referral, size] = (form.body as { fields: { id: number }[] }).fields.map((f) => f.id);
      const hidden = await api.post('/forms', {
        name: 'Staff',
        hidden: true,
        fields: [{ name: 'Internal', type: 'textbox' }],
      });
      hiddenFormId = (hidden.body as { id: number }).id;
      internal = (hidden.body as { fields: { id: number }[] }).fields[0].id;
      ({ calendar, type } = await service({ formIDs: [formId, hiddenFormId] }));
      label = (await api.post('/labels', { name: 'VIP', color: 'gold' })).body as typeof label;
      otherLabel = ((await api.post('/labels', { name: 'Paid' })).body as { id: number }).id;
    });

    let slot = 0;
    /** A fresh appointment with both intake answers, each test on a time of its own. */
    async function booked(): Promise<AppointmentBody> {
      const minutes = 9 * 60 + 15 * slot++;
      const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
      return book(
        {
          appointmentTypeID: type,
          calendarID: calendar,
          datetime: `${MONDAY}T${time}`,
          fields: [
            { id: referral, value: 'Newspaper' },
            { id: size, value: 'Small' },
          ],
        },
        '?admin=true',
      );
    }

    const intake = (values: [number, string, string][]) => ({
      id: formId,
      name: 'Intake',
      values: values.map(([id, name, value]) => ({ id, fieldID: id, name, value })),
    });

    it('changes what is given, ignores the rest, records changed', async () => {
      const before = await booked();
      const res = await api.put(`/appointments/${before.id}`, {
        firstName: ' Grace ',
        lastName: 'Hopper',
        email: 'Grace@Example.com',
        phone: '555-0100',
        smsOptIn: true,
        labels: [{ id: label.id }],
        fields: [{ id: size, value: 'Large' }],
        // Not the client's to change, or not changed here: ignored.
        notes: 'ignored without admin',
        certificate: 'IGNORED',
        datetime: `${NEXT_MONDAY}T10:00`,
        calendarID: 1,
        price: '0.00',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...before,
        firstName: 'Grace',
        lastName: 'Hopper',
        email: 'grace@example.com',
        phone: '555-0100',
        labels: [label],
        forms: [
          intake([
            [referral, 'Referral', 'Newspaper'],
            [size, 'Size', 'Large'],
          ]),
        ],
        formsText: 'Intake\n======\nReferral: Newspaper\nSize: Large',
      });
      expect(await get(before.id)).toEqual(res.body);
      const [row] = await db.query<{ smsOptIn: number }[]>(
        'SELECT sms_opt_in AS smsOptIn FROM appointments WHERE id = ?',
        [before.id],
      );
      expect(Number(row.smsOptIn)).toBe(1);
      expect(await outboxOf(before.id)).toEqual([
        { type: 'appointment.scheduled', payload: payload(before) },
        { type: 'appointment.changed', payload: payload(before) },
      ]);
    });

    it('replaces only the answers given; a blank one removes an optional answer', async () => {
      const before = await booked();
      const res = await api.put(`/appointments/${before.id}`, {
        fields: [{ id: referral, value: ' ' }],
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        forms: [intake([[size, 'Size', 'Small']])],
        formsText: 'Intake\n======\nSize: Small',
      });
      // An empty body changes nothing (and is still a change request).
      expect((await api.put(`/appointments/${before.id}`)).body).toEqual(res.body);
    });

    it('labels: [] removes the label', async () => {
      const before = await booked();
      await api.put(`/appointments/${before.id}`, { labels: [{ id: label.id }] });
      expect((await api.put(`/appointments/${before.id}`, { labels: [] })).body).toEqual(before);
    });

    it('with admin=true also sets notes and answers hidden forms', async () => {
      const before = await booked();
      const res = await api.put(`/appointments/${before.id}?admin=true`, {
        notes: 'Prefers mornings',
        fields: [{ id: internal, value: 'Regular' }],
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        notes: 'Prefers mornings',
        forms: [
          intake([
            [referral, 'Referral', 'Newspaper'],
            [size, 'Size', 'Small'],
          ]),
          {
            id: hiddenFormId,
            name: 'Staff',
            values: [{ id: internal, fieldID: internal, name: 'Internal', value: 'Regular' }],
          },
        ],
      });
      // An admin may leave a required answer empty, and the e-mail too; but an e-mail given is
      // one address (issue 20: a mailer reads a list).
      expect(
        await api.put(`/appointments/${before.id}?admin=true`, { email: 'front desk' }),
      ).toMatchObject(apiError(400, 'invalid_email', 'Invalid "email" attribute value.'));
      expect(
        await api.put(`/appointments/${before.id}?admin=true`, {
          email: '',
          fields: [{ id: size, value: '' }],
        }),
      ).toMatchObject({ status: 200, body: { email: '' } });
    });

    it('refuses what booking refuses, with its codes, and changes nothing', async () => {
      const before = await booked();
      const cases: [Record<string, unknown>, string, string][] = [
        [{ firstName: '' }, 'required_first_name', 'Attribute "firstName" is required.'],
        [{ lastName: '  ' }, 'required_last_name', 'Attribute "lastName" is required.'],
        [{ email: '' }, 'required_email', 'Attribute "email" is required.'],
        [{ email: 'nope' }, 'invalid_email', 'Invalid "email" attribute value.'],
        [{ firstName: 5 }, 'invalid_first_name', 'Invalid "firstName" attribute value.'],
        [{ smsOptIn: 'yes' }, 'invalid_sms_opt_in', 'Invalid "smsOptIn" attribute value.'],
        [
          { labels: [{ id: label.id }, { id: otherLabel }] },
          'invalid_labels',
          'Only one label can be applied to an appointment.',
        ],
        [
          { labels: [{ id: 2147483000 }] },
          'invalid_labels',
          'The label "2147483000" does not exist.',
        ],
        [
          { fields: [{ id: 2147483000, value: 'x' }] },
          'invalid_fields',
          'The field "2147483000" does not exist on this appointment.',
        ],
        [
          { fields: [{ id: internal, value: 'x' }] },
          'invalid_fields',
          `The field "${internal}" does not exist on this appointment.`,
        ],
        [
          { fields: [{ id: size, value: 'Huge' }] },
          'invalid_fields',
          `The value of field "${size}" is invalid: it must be one of the field's options.`,
        ],
        [
          { fields: [{ id: size, value: '' }] },
          'required_field',
          `The field "${size}" is required.`,
        ],
        [
          { firstName: 'Changed', email: 'nope' },
          'invalid_email',
          'Invalid "email" attribute value.',
        ],
      ];
      for (const [body, error, message] of cases)
        expect({ body, res: await api.put(`/appointments/${before.id}`, body) }).toMatchObject({
          body,
          res: apiError(400, error, message),
        });
      expect(await get(before.id)).toEqual(before);
      expect((await outboxOf(before.id)).map((e) => e.type)).toEqual(['appointment.scheduled']);
    });

    it('with admin=true applies a certificate: a package use taken, given back when removed', async () => {
      const pack = await packageFor(type, 2);
      const before = await booked();
      const res = await api.put(`/appointments/${before.id}?admin=true`, {
        certificate: pack.certificate.toLowerCase(),
      });
      expect(res.body).toEqual({ ...before, certificate: pack.certificate, priceSold: '0.00' });
      expect(await remainingUses(pack.id)).toEqual({ [type]: 1 });
      // The same code again takes nothing more.
      await api.put(`/appointments/${before.id}?admin=true`, { certificate: pack.certificate });
      expect(await remainingUses(pack.id)).toEqual({ [type]: 1 });
      expect(
        await api.put(`/appointments/${before.id}?admin=true`, { certificate: 'NO-SUCH-CODE' }),
      ).toMatchObject(
        apiError(400, 'invalid_certificate', 'The certificate "NO-SUCH-CODE" is invalid.'),
      );
      expect(await remainingUses(pack.id)).toEqual({ [type]: 1 });
      expect(
        (await api.put(`/appointments/${before.id}?admin=true`, { certificate: '' })).body,
      ).toEqual(before);
      expect(await remainingUses(pack.id)).toEqual({ [type]: 2 });
    });
  });

  describe('PUT /appointments/{id}/cancel', () => {
    it('cancels, frees the slot, records canceled and changed', async () => {
      const { calendar, type } = await service();
      const before = await book({
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: `${MONDAY}T10:00`,
      });
      expect(await offered(type, calendar)).not.toContain('10:00');
      const res = await api.put(`/appointments/${before.id}/cancel?noEmail=true`, {
        cancelNote: 'Feeling sick',
        noShow: true,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...before,
        canceled: true,
        canClientCancel: false,
        canClientReschedule: false,
      });
      expect(await get(before.id)).toEqual(res.body);
      const [row] = await db.query<
        { canceledAt: Date | null; cancelNote: string | null; noShow: number }[]
      >(
        `SELECT canceled_at AS canceledAt, cancel_note AS cancelNote, no_show AS noShow
           FROM appointments WHERE id = ?`,
        [before.id],
      );
      expect(row.canceledAt).toBeInstanceOf(Date);
      expect(Math.abs(Date.now() - new Date(row.canceledAt!).getTime())).toBeLessThan(60_000);
      // noShow is an admin's to set.
      expect({ ...row, canceledAt: undefined, noShow: Number(row.noShow) }).toEqual({
        canceledAt: undefined,
        cancelNote: 'Feeling sick',
        noShow: 0,
      });
      expect(await outboxOf(before.id)).toEqual([
        { type: 'appointment.scheduled', payload: payload(before) },
        { type: 'appointment.canceled', payload: payload(before, true) },
      ]);
      // The slot is offered and bookable again.
      expect(await offered(type, calendar)).toContain('10:00');
      await book({ appointmentTypeID: type, calendarID: calendar, datetime: `${MONDAY}T10:00` });
    });

    it('canceling a canceled appointment is 400 already_canceled, and records nothing', async () => {
      const { calendar, type } = await service();
      const { id } = await book({
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: `${MONDAY}T10:00`,
      });
      expect((await api.put(`/appointments/${id}/cancel`)).status).toBe(200);
      expect(await api.put(`/appointments/${id}/cancel`)).toMatchObject(
        apiError(400, 'already_canceled', `The appointment "${id}" is already canceled.`),
      );
      expect(await api.put(`/appointments/${id}/cancel?admin=true`, {})).toMatchObject(
        apiError(400, 'already_canceled', `The appointment "${id}" is already canceled.`),
      );
      expect((await outboxOf(id)).map((e) => e.type)).toEqual([
        'appointment.scheduled',
        'appointment.canceled',
      ]);
    });

    it('with admin=true records a no-show, even of an appointment that has started', async () => {
      const { calendar, type } = await service();
      const past = await book(
        { appointmentTypeID: type, calendarID: calendar, datetime: '2020-01-06T10:00' },
        '?admin=true',
      );
      expect(await api.put(`/appointments/${past.id}/cancel`)).toMatchObject(
        apiError(
          400,
          'cancel_not_allowed',
          `The appointment "${past.id}" has already started; only an admin can cancel it.`,
        ),
      );
      expect(
        await api.put(`/appointments/${past.id}/cancel?admin=true`, { noShow: true }),
      ).toMatchObject({ status: 200, body: { canceled: true, noShow: true } });
    });

    it("gives the package's use back, once however many cancels race", async () => {
      const { calendar, type } = await service();
      const pack = await packageFor(type, 1);
      const booked = await book({
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: `${MONDAY}T10:00`,
        certificate: pack.certificate,
      });
      expect(booked).toMatchObject({ certificate: pack.certificate, priceSold: '0.00' });
      expect(await remainingUses(pack.id)).toEqual({ [type]: 0 });
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => api.put(`/appointments/${booked.id}/cancel`)),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      for (const refused of answers.filter((a) => a.status !== 200))
        expect(refused).toMatchObject(
          apiError(400, 'already_canceled', `The appointment "${booked.id}" is already canceled.`),
        );
      expect(await remainingUses(pack.id)).toEqual({ [type]: 1 });
      // The use is there to book with again.
      await book({
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: `${MONDAY}T11:00`,
        certificate: pack.certificate,
      });
      expect(await remainingUses(pack.id)).toEqual({ [type]: 0 });
    });

    it('refuses a cancelNote that is not text', async () => {
      const { calendar, type } = await service();
      const { id } = await book({
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: `${MONDAY}T10:00`,
      });
      expect(await api.put(`/appointments/${id}/cancel`, { cancelNote: 5 })).toMatchObject(
        apiError(400, 'invalid_cancel_note', 'Invalid "cancelNote" attribute value.'),
      );
      expect((await get(id)).canceled).toBe(false);
    });
  });

  describe('PUT /appointments/{id}/reschedule', () => {
    it('moves it with its length (addons included) and its padding; the old slot is freed', async () => {
      const addon = await createAddon(api, { name: 'Beard trim', duration: 15 });
      const { calendar, type } = await service({ addonIDs: [addon], paddingAfter: 15 });
      const before = await book({
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: `${MONDAY}T10:00`,
        addonIDs: [addon],
      });
      expect(before).toMatchObject({ duration: '60', endTime: '11:00am' });
      expect(await offered(type, calendar)).not.toContain('10:00');

      const res = await api.put(`/appointments/${before.id}/reschedule?noEmail=true`, {
        datetime: `${MONDAY}T13:00`,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...before,
        datetime: `${MONDAY}T13:00:00-0400`,
        time: '1:00pm',
        endTime: '2:00pm',
      });
      expect(await get(before.id)).toEqual(res.body);
      const [row] = await db.query<{ busyFrom: Date; busyUntil: Date }[]>(
        'SELECT busy_from AS busyFrom, busy_until AS busyUntil FROM appointments WHERE id = ?',
        [before.id],
      );
      expect([new Date(row.busyFrom).toISOString(), new Date(row.busyUntil).toISOString()]).toEqual(
        [`${MONDAY}T17:00:00.000Z`, `${MONDAY}T18:15:00.000Z`],
      );
      expect(await outboxOf(before.id)).toEqual([
        { type: 'appointment.scheduled', payload: payload(before) },
        { type: 'appointment.rescheduled', payload: payload(before, true) },
      ]);
      // Old slot offered and bookable again; the new one (with its padding) taken.
      const times = await offered(type, calendar);
      expect(times).toContain('10:00');
      expect(times).not.toContain('13:00');
      expect(times).not.toContain('14:00');
      expect(times).toContain('14:15');
      await book({ appointmentTypeID: type, calendarID: calendar, datetime: `${MONDAY}T10:00` });
      expect(
        await api.post('/appointments', {
          ...client,
          appointmentTypeID: type,
          calendarID: calendar,
          datetime: `${MONDAY}T13:30`,
        }),
      ).toMatchObject(
        apiError(400, 'not_available', `The time "${MONDAY}T13:30" is not an available time slot.`),
      );
    });

    it('checks availability ignoring the appointment itself (unless admin)', async () => {
      const { calendar, type } = await service();
      const at = (time: string) => ({
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: `${MONDAY}T${time}`,
      });
      const first = await book(at('10:00'));
      await book(at('11:30'));
      // Overlapping its own time is fine.
      expect(
        await api.put(`/appointments/${first.id}/reschedule`, { datetime: `${MONDAY}T10:15` }),
      ).toMatchObject({ status: 200, body: { time: '10:15am', endTime: '11:00am' } });
      expect(
        await api.put(`/appointments/${first.id}/reschedule`, { datetime: `${MONDAY}T11:00` }),
      ).toMatchObject(
        apiError(400, 'not_available', `The time "${MONDAY}T11:00" is not an available time slot.`),
      );
      expect(
        await api.put(`/appointments/${first.id}/reschedule`, { datetime: `${MONDAY}T18:00` }),
      ).toMatchObject(
        apiError(400, 'not_available', `The time "${MONDAY}T18:00" is not an available time slot.`),
      );
      // Nothing moved.
      expect(await get(first.id)).toMatchObject({ time: '10:15am' });
      // An admin places it anywhere.
      expect(
        await api.put(`/appointments/${first.id}/reschedule?admin=true`, {
          datetime: `${MONDAY}T11:00`,
        }),
      ).toMatchObject({ status: 200, body: { time: '11:00am', endTime: '11:45am' } });
    });

    it("moves to another calendar, reading the datetime in its zone; timezone sets the client's", async () => {
      const { calendar, type } = await service();
      const west = await createCalendar(api, {
        name: 'West',
        timezone: 'America/Los_Angeles',
        hours: HOURS,
      });
      await api.put(`/appointment-types/${type}`, { calendarIDs: [calendar, west] });
      const before = await book({
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: `${MONDAY}T10:00`,
      });
      const res = await api.put(`/appointments/${before.id}/reschedule`, {
        datetime: `${MONDAY}T09:00`,
        calendarID: String(west),
        timezone: 'Europe/Paris',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...before,
        calendarID: west,
        calendar: 'West',
        calendarTimezone: 'America/Los_Angeles',
        timezone: 'Europe/Paris',
        datetime: `${MONDAY}T18:00:00+0200`,
        date: 'June 3, 2030',
        time: '6:00pm',
        endTime: '6:45pm',
        dateCreated: expect.any(String),
        datetimeCreated: expect.any(String),
      });
      // The first calendar's 10:00 is free again; the second's 09:00 is taken.
      expect(await offered(type, calendar)).toContain('10:00');
      expect(await offered(type, west)).not.toContain('09:00');
    });

    it.each([
      [{}, 'required_datetime', 'The parameter "datetime" is required.'],
      [{ datetime: '' }, 'required_datetime', 'The parameter "datetime" is required.'],
      [{ datetime: 'next tuesday' }, 'invalid_datetime', 'The datetime "next tuesday" is invalid.'],
      [{ datetime: 20300603 }, 'invalid_datetime', 'The datetime "20300603" is invalid.'],
      [
        { datetime: `${MONDAY}T10:00`, calendarID: 'abc' },
        'invalid_calendar',
        'The calendar "abc" does not exist.',
      ],
      [
        { datetime: `${MONDAY}T10:00`, calendarID: 2147483000 },
        'invalid_calendar',
        'The calendar "2147483000" does not exist.',
      ],
      [
        { datetime: `${MONDAY}T10:00`, timezone: 'Mars/Base' },
        'invalid_timezone',
        'Invalid timezone "Mars/Base".',
      ],
      [
        { datetime: '2020-01-06T10:00' },
        'not_available_min_hours_in_advance',
        'The time "2020-01-06T10:00" is not far enough in advance.',
      ],
      [
        { datetime: '2045-06-05T10:00' },
        'not_available_max_days_in_advance',
        'The time "2045-06-05T10:00" is too far in advance.',
      ],
      // A New York local time that the spring-forward skips.
      [
        { datetime: '2030-03-10T02:30' },
        'not_available',
        'The time "2030-03-10T02:30" is not an available time slot.',
      ],
    ])('refuses %p with booking’s %s', async (body, error, message) => {
      const { calendar, type } = await service();
      const before = await book({
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: `${MONDAY}T10:00`,
      });
      expect(await api.put(`/appointments/${before.id}/reschedule`, body)).toMatchObject(
        apiError(400, error, message),
      );
      expect(await get(before.id)).toEqual(before);
      expect((await outboxOf(before.id)).map((e) => e.type)).toEqual(['appointment.scheduled']);
    });

    it('refuses a calendar that does not offer the type, and a canceled appointment', async () => {
      const { calendar, type } = await service();
      const elsewhere = await createCalendar(api, { name: 'Elsewhere', hours: HOURS });
      const { id } = await book({
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: `${MONDAY}T10:00`,
      });
      expect(
        await api.put(`/appointments/${id}/reschedule`, {
          datetime: `${MONDAY}T11:00`,
          calendarID: elsewhere,
        }),
      ).toMatchObject(
        apiError(400, 'invalid_calendar', `The calendar "${elsewhere}" does not exist.`),
      );
      const theirs = await service({}, stranger);
      expect(
        await api.put(`/appointments/${id}/reschedule`, {
          datetime: `${MONDAY}T11:00`,
          calendarID: theirs.calendar,
        }),
      ).toMatchObject(apiError(403, 'forbidden', 'Forbidden'));
      await api.put(`/appointments/${id}/cancel`);
      for (const query of ['', '?admin=true'])
        expect(
          await api.put(`/appointments/${id}/reschedule${query}`, { datetime: `${MONDAY}T11:00` }),
        ).toMatchObject(
          apiError(400, 'already_canceled', `The appointment "${id}" is already canceled.`),
        );
    });

    it('a client cannot move an appointment that has started; an admin can', async () => {
      const { calendar, type } = await service();
      const past = await book(
        { appointmentTypeID: type, calendarID: calendar, datetime: '2020-01-06T10:00' },
        '?admin=true',
      );
      expect(
        await api.put(`/appointments/${past.id}/reschedule`, { datetime: `${MONDAY}T10:00` }),
      ).toMatchObject(
        apiError(
          400,
          'reschedule_not_allowed',
          `The appointment "${past.id}" has already started; only an admin can reschedule it.`,
        ),
      );
      expect(
        await api.put(`/appointments/${past.id}/reschedule?admin=true`, {
          datetime: `${MONDAY}T10:00`,
        }),
      ).toMatchObject({ status: 200, body: { datetime: `${MONDAY}T10:00:00-0400` } });
    });

    it('moves a class seat to another session with a free seat; a full one is not_available', async () => {
      const { calendar, type } = await service({ type: 'class', classSize: 1, duration: 60 });
      const session = async (datetime: string) => {
        const res = await api.post('/classes', {
          appointmentTypeID: type,
          calendarID: calendar,
          datetime,
        });
        expect(res.status).toBe(200);
        return (res.body as { id: number }).id;
      };
      const morning = await session(`${MONDAY}T09:00`);
      const noon = await session(`${MONDAY}T12:00`);
      const evening = await session(`${MONDAY}T18:00`);
      const at = (time: string) => ({
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: `${MONDAY}T${time}`,
      });
      const first = await book(at('09:00'));
      const second = await book(at('12:00'));
      expect(first).toMatchObject({ classID: morning });
      expect(second).toMatchObject({ classID: noon });
      // Noon's only seat is taken; its own session is not counted against it.
      expect(
        await api.put(`/appointments/${first.id}/reschedule`, { datetime: `${MONDAY}T12:00` }),
      ).toMatchObject(
        apiError(400, 'not_available', `The time "${MONDAY}T12:00" is not an available time slot.`),
      );
      expect(
        await api.put(`/appointments/${first.id}/reschedule`, { datetime: `${MONDAY}T09:00` }),
      ).toMatchObject({ status: 200, body: { classID: morning } });
      // No session at 10:00.
      expect(
        await api.put(`/appointments/${first.id}/reschedule`, { datetime: `${MONDAY}T10:00` }),
      ).toMatchObject(
        apiError(400, 'not_available', `The time "${MONDAY}T10:00" is not an available time slot.`),
      );
      expect(
        await api.put(`/appointments/${first.id}/reschedule`, { datetime: `${MONDAY}T18:00` }),
      ).toMatchObject({
        status: 200,
        body: { classID: evening, time: '6:00pm', endTime: '7:00pm' },
      });
      // The morning seat is free again.
      expect(await book(at('09:00'))).toMatchObject({ classID: morning });
    });

    it('20 appointments moved in parallel to one slot (and a booking racing them): one wins', async () => {
      const { calendar, type } = await service();
      // An admin places them on Tuesday, outside the hours, an hour apart.
      const moving = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          book(
            {
              appointmentTypeID: type,
              calendarID: calendar,
              datetime: `2030-06-04T${String(i).padStart(2, '0')}:00`,
            },
            '?admin=true',
          ),
        ),
      );
      const target = { datetime: `${MONDAY}T15:00` };
      const answers = await Promise.all([
        ...moving.map((a) => api.put(`/appointments/${a.id}/reschedule`, target)),
        api.post('/appointments', {
          ...client,
          appointmentTypeID: type,
          calendarID: calendar,
          ...target,
        }),
      ]);
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      for (const refused of answers.filter((a) => a.status !== 200))
        expect(refused).toMatchObject(
          apiError(
            400,
            'not_available',
            `The time "${MONDAY}T15:00" is not an available time slot.`,
          ),
        );
      // No two live appointments of the calendar overlap.
      const [{ overlaps }] = await db.query<{ overlaps: string }[]>(
        `SELECT COUNT(*) AS overlaps FROM appointments a JOIN appointments b
            ON b.calendar_id = a.calendar_id AND b.id > a.id
           AND b.busy_from < a.busy_until AND a.busy_from < b.busy_until
         WHERE a.calendar_id = ? AND a.canceled = 0 AND b.canceled = 0`,
        [calendar],
      );
      expect(Number(overlaps)).toBe(0);
    });
  });

  describe('access', () => {
    it("another account's appointment is 403 on every endpoint; one that exists nowhere is 404", async () => {
      const theirs = await service({}, stranger);
      const { id } = await book(
        {
          appointmentTypeID: theirs.type,
          calendarID: theirs.calendar,
          datetime: `${MONDAY}T10:00`,
        },
        '',
        stranger,
      );
      const before = await get(id, stranger);
      const requests: [string, string, Record<string, unknown>][] = [
        ['get', `/appointments/${id}`, {}],
        ['put', `/appointments/${id}`, { firstName: 'Mallory' }],
        ['put', `/appointments/${id}/cancel`, {}],
        ['put', `/appointments/${id}/reschedule`, { datetime: `${MONDAY}T11:00` }],
        ['put', `/appointments/${id}/reschedule?admin=true`, { datetime: `${MONDAY}T11:00` }],
      ];
      const send = (method: string, path: string, body: Record<string, unknown>) =>
        method === 'get' ? api.get(path) : api.put(path, body);
      for (const [method, path, body] of requests)
        expect({ path, res: await send(method, path, body) }).toMatchObject({
          path,
          res: apiError(403, 'forbidden', 'Forbidden'),
        });
      expect(await get(id, stranger)).toEqual(before);
      for (const [method, path, body] of requests) {
        const nowhere = path.replace(String(id), '2147483000');
        expect({ nowhere, res: await send(method, nowhere, body) }).toMatchObject({
          nowhere,
          res: apiError(404, 'not_found', 'Not Found'),
        });
      }
    });
  });
});
