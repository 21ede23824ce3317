import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import { DataSource } from 'typeorm';
import { type ApiClient, type ApiResponse, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';

/**
 * Recurring series (docs/series.md): `POST /appointment-series` all or nothing, its wall-clock time
 * across DST changes, the limits counted per occurrence, `check-series`, reading and canceling, and
 * the storms of the issue, each checked in MySQL.
 */

const NY = 'America/New_York';
const LONDON = 'Europe/London';
const HORIZON = { maxDaysInAdvance: 3650 };
const WEEKDAYS = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    [{ start: '08:00', end: '18:00' }],
  ]),
);
const client = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' };
const weekly = (count: number, interval = 1) => ({ frequency: 'weekly', interval, count });
/** What the types of these tests let clients book as a series. */
const ANY_SERIES = { frequencies: ['daily', 'weekly', 'monthly'], maxCount: 52 };

describe('POST /appointment-series (e2e, checked in MySQL)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let api: ApiClient;
  let other: ApiClient;
  let authorization: string;

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
    const account = await createAccount(app, { timezone: NY });
    authorization = account.authorization;
    api = apiClient(app, account);
    other = apiClient(app, await createAccount(app, { timezone: NY }));
  });

  afterAll(() => app.close());

  async function shop(zone = NY, type: Record<string, unknown> = {}) {
    const calendar = await createCalendar(api, { timezone: zone, hours: WEEKDAYS });
    const typeId = await createAppointmentType(api, {
      duration: 60,
      calendarIDs: [calendar],
      ...HORIZON,
      recurrence: ANY_SERIES,
      ...type,
    });
    return { calendar, type: typeId };
  }

  const book = (body: Record<string, unknown>, query = '') =>
    api.post(`/appointment-series${query}`, { ...client, ...body });

  async function count(sql: string, parameters: unknown[]): Promise<number> {
    const [row] = await db.query<{ n: string }[]>(`SELECT COUNT(*) AS n FROM ${sql}`, parameters);
    return Number(row.n);
  }
  const appointmentsOf = (type: number) =>
    count('appointments WHERE appointment_type_id = ? AND canceled = 0', [type]);
  const seriesOf = (type: number) =>
    count('appointment_series WHERE appointment_type_id = ?', [type]);
  const eventsOf = (type: number, event: string) =>
    count("outbox WHERE JSON_VALUE(payload, '$.appointmentTypeId') = ? AND type = ?", [
      type,
      event,
    ]);

  it('books every occurrence on one calendar, each an Appointment with seriesID, read back whole', async () => {
    const s = await shop();
    const res = await book({
      appointmentTypeID: s.type,
      datetime: '2030-06-03T09:00',
      recurrence: weekly(6),
    });
    expect(res.status).toBe(200);
    const series = res.body;
    expect(series).toEqual({
      id: expect.any(Number),
      appointmentTypeID: s.type,
      calendarID: s.calendar,
      recurrence: { frequency: 'weekly', interval: 1, count: 6 },
      appointments: expect.any(Array),
    });
    const occurrences = series.appointments as { datetime: string; seriesID: number }[];
    expect(occurrences.map((a) => a.datetime)).toEqual(
      ['03', '10', '17', '24']
        .map((d) => `2030-06-${d}T09:00:00-0400`)
        .concat(['2030-07-01T09:00:00-0400', '2030-07-08T09:00:00-0400']),
    );
    expect(new Set(occurrences.map((a) => a.seriesID))).toEqual(new Set([series.id]));
    expect(await appointmentsOf(s.type)).toBe(6);
    // One `scheduled` event per occurrence: existing integrations see every appointment.
    expect(await eventsOf(s.type, 'appointment.scheduled')).toBe(6);

    expect(await api.get(`/appointment-series/${series.id}`)).toMatchObject({
      status: 200,
      body: series as object,
    });
    const listed = await api.get(`/appointments?seriesID=${series.id}&direction=ASC`);
    expect((listed.body as { id: number }[]).map((a) => a.id)).toEqual(
      occurrences.map((a) => (a as unknown as { id: number }).id),
    );
    // A single booking carries no seriesID.
    const single = await api.post('/appointments', {
      ...client,
      appointmentTypeID: s.type,
      datetime: '2030-06-04T09:00',
    });
    expect(single.status).toBe(200);
    expect(single.body).not.toHaveProperty('seriesID');
  });

  it("answers another account's series with 403 and none with 404, on every route", async () => {
    const s = await shop();
    const { body } = await book({
      appointmentTypeID: s.type,
      datetime: '2030-06-05T10:00',
      recurrence: weekly(2),
    });
    const forbidden = apiError(403, 'forbidden', 'Forbidden');
    const missing = apiError(404, 'not_found', 'Not Found');
    await expect(other.get(`/appointment-series/${body.id}`)).resolves.toMatchObject(forbidden);
    await expect(other.put(`/appointment-series/${body.id}/cancel`, {})).resolves.toMatchObject(
      forbidden,
    );
    await expect(other.get(`/appointments?seriesID=${body.id}`)).resolves.toMatchObject(forbidden);
    await expect(api.get('/appointment-series/999999999')).resolves.toMatchObject(missing);
    await expect(api.put('/appointment-series/999999999/cancel', {})).resolves.toMatchObject(
      missing,
    );
    await expect(api.get('/appointments?seriesID=999999999')).resolves.toMatchObject(missing);
    // Nothing was canceled by the other account.
    expect(await appointmentsOf(s.type)).toBe(2);
  });

  it.each([
    [NY, '2030-02-25T09:00', ['-0500', '-0400', '-0500']],
    [LONDON, '2030-02-25T09:00', ['+0000', '+0100', '+0000']],
  ])(
    'keeps a weekly series at 9:00 in %s across both DST changes of the year',
    async (zone, first, offsets) => {
      const s = await shop(zone);
      const res = await api.post('/appointment-series', {
        ...client,
        appointmentTypeID: s.type,
        calendarID: s.calendar,
        datetime: first,
        recurrence: weekly(40),
      });
      expect(res.status).toBe(200);
      const datetimes = (res.body.appointments as { datetime: string }[]).map((a) => a.datetime);
      expect(new Set(datetimes.map((d) => d.slice(11, 19)))).toEqual(new Set(['09:00:00']));
      expect(datetimes[0].endsWith(offsets[0])).toBe(true);
      expect(datetimes[20].endsWith(offsets[1])).toBe(true);
      expect(datetimes[39]).toBe(`2030-11-25T09:00:00${offsets[2]}`);
      // As stored: each instant is 9:00 on the calendar's wall clock.
      const rows = await db.query<{ startsAt: Date }[]>(
        'SELECT starts_at AS startsAt FROM appointments WHERE series_id = ? ORDER BY starts_at',
        [res.body.id],
      );
      expect(
        new Set(rows.map((r) => DateTime.fromJSDate(r.startsAt, { zone }).toFormat('ccc HH:mm'))),
      ).toEqual(new Set(['Mon 09:00']));
    },
  );

  it('refuses a series whose 4th occurrence meets a limit of 1 a day, naming it, and writes nothing', async () => {
    const s = await shop(NY, { maxPerDay: 1 });
    const single = await api.post('/appointments', {
      ...client,
      appointmentTypeID: s.type,
      calendarID: s.calendar,
      datetime: '2030-06-24T15:00',
    });
    expect(single.status).toBe(200);
    const res = await book({
      appointmentTypeID: s.type,
      calendarID: s.calendar,
      datetime: '2030-06-03T09:00',
      recurrence: weekly(6),
    });
    expect(res).toMatchObject({
      status: 400,
      body: {
        status_code: 400,
        error: 'not_available',
        message: 'The time "2030-06-24T09:00:00-0400" is not an available time slot.',
        unavailable: ['2030-06-24T09:00:00-0400'],
      },
    });
    expect(await appointmentsOf(s.type)).toBe(1);
    expect(await seriesOf(s.type)).toBe(0);
    expect(await eventsOf(s.type, 'appointment.scheduled')).toBe(1);
  });

  it("counts the series' own occurrences toward a limit: a daily series against 1 a week", async () => {
    const s = await shop(NY, { maxPerWeek: 1 });
    const res = await book({
      appointmentTypeID: s.type,
      calendarID: s.calendar,
      datetime: '2030-06-03T09:00',
      recurrence: { frequency: 'daily', count: 3 },
    });
    expect(res.status).toBe(400);
    expect(res.body.unavailable).toEqual(['2030-06-04T09:00:00-0400', '2030-06-05T09:00:00-0400']);
    expect(await appointmentsOf(s.type)).toBe(0);
  });

  it('lists every refused occurrence, quoting the first as it was sent', async () => {
    const s = await shop();
    for (const datetime of ['2030-06-10T09:00', '2030-06-24T09:00'])
      expect(
        (
          await api.post('/appointments', {
            ...client,
            appointmentTypeID: s.type,
            calendarID: s.calendar,
            datetime,
          })
        ).status,
      ).toBe(200);
    const res = await book({
      appointmentTypeID: s.type,
      calendarID: s.calendar,
      datetime: '2030-06-03T09:00',
      recurrence: weekly(5),
    });
    expect(res.body).toEqual({
      status_code: 400,
      error: 'not_available',
      message: 'The time "2030-06-10T09:00:00-0400" is not an available time slot.',
      unavailable: ['2030-06-10T09:00:00-0400', '2030-06-24T09:00:00-0400'],
    });
    expect(await seriesOf(s.type)).toBe(0);

    // Without a calendar named: the contract's no_available_calendar, the dates listed.
    const unnamed = await book({
      appointmentTypeID: s.type,
      datetime: '2030-06-03T09:00',
      recurrence: weekly(3),
    });
    expect(unnamed.body).toEqual({
      status_code: 400,
      error: 'no_available_calendar',
      message: 'We could not find an available calendar.',
      unavailable: ['2030-06-10T09:00:00-0400'],
    });
  });

  it('takes the first calendar free for every occurrence when none is named', async () => {
    const first = await createCalendar(api, { timezone: NY, hours: WEEKDAYS });
    const second = await createCalendar(api, { timezone: NY, hours: WEEKDAYS });
    const type = await createAppointmentType(api, {
      duration: 60,
      calendarIDs: [first, second],
      ...HORIZON,
      recurrence: ANY_SERIES,
    });
    // The first calendar is taken on the 3rd occurrence: the second takes the whole series.
    await api.post('/appointments', {
      ...client,
      appointmentTypeID: type,
      calendarID: first,
      datetime: '2030-06-17T09:00',
    });
    const res = await book({
      appointmentTypeID: type,
      datetime: '2030-06-03T09:00',
      recurrence: weekly(4),
    });
    expect(res.status).toBe(200);
    expect(res.body.calendarID).toBe(second);
    expect(
      new Set((res.body.appointments as { calendarID: number }[]).map((a) => a.calendarID)),
    ).toEqual(new Set([second]));
    expect(await appointmentsOf(type)).toBe(5);
  });

  it('refuses a monthly series reaching a day a month lacks, and a recurrence it cannot read', async () => {
    const s = await shop();
    const base = {
      appointmentTypeID: s.type,
      calendarID: s.calendar,
      datetime: '2030-01-31T09:00',
    };
    await expect(
      book({ ...base, recurrence: { frequency: 'monthly', count: 3 } }),
    ).resolves.toMatchObject(
      apiError(
        400,
        'invalid_recurrence',
        'The series reaches day 31 of February 2030, which has 28 days (occurrence 2).',
      ),
    );
    await expect(book(base)).resolves.toMatchObject(
      apiError(400, 'required_recurrence', 'The parameter "recurrence" is required.'),
    );
    await expect(
      book({ ...base, recurrence: { frequency: 'weekly', count: 60 } }),
    ).resolves.toMatchObject(
      apiError(
        400,
        'invalid_recurrence',
        'The recurrence count "60" is invalid: a whole number from 2 to 52.',
      ),
    );
    // The booking's own checks come first, in the contract's order.
    await expect(
      api.post('/appointment-series', { ...base, recurrence: weekly(2) }),
    ).resolves.toMatchObject(
      apiError(400, 'required_first_name', 'Attribute "firstName" is required.'),
    );
    expect(await appointmentsOf(s.type)).toBe(0);
  });

  it("books a client's series only as its type offers it; an admin's whatever the type says", async () => {
    const none = await shop(NY, { recurrence: null });
    const weeklyOnly = await shop(NY, { recurrence: { frequencies: ['weekly'], maxCount: 4 } });
    const at = { datetime: '2030-06-03T09:00' };
    await expect(
      book({ appointmentTypeID: none.type, ...at, recurrence: weekly(2) }),
    ).resolves.toMatchObject(
      apiError(
        400,
        'invalid_recurrence',
        `The appointment type "${none.type}" does not offer weekly series.`,
      ),
    );
    await expect(
      book({
        appointmentTypeID: weeklyOnly.type,
        ...at,
        recurrence: { frequency: 'daily', count: 2 },
      }),
    ).resolves.toMatchObject(
      apiError(
        400,
        'invalid_recurrence',
        `The appointment type "${weeklyOnly.type}" does not offer daily series.`,
      ),
    );
    await expect(
      book({ appointmentTypeID: weeklyOnly.type, ...at, recurrence: weekly(5) }),
    ).resolves.toMatchObject(
      apiError(
        400,
        'invalid_recurrence',
        `The appointment type "${weeklyOnly.type}" offers series of at most 4 occurrences.`,
      ),
    );
    expect(
      (await book({ appointmentTypeID: weeklyOnly.type, ...at, recurrence: weekly(4) })).status,
    ).toBe(200);
    const admin = await book(
      { appointmentTypeID: none.type, calendarID: none.calendar, ...at, recurrence: weekly(2) },
      '?admin=true',
    );
    expect(admin.status).toBe(200);
    // The type shows what it offers; none, nothing.
    expect((await api.get(`/appointment-types/${weeklyOnly.type}`)).body.recurrence).toEqual({
      frequencies: ['weekly'],
      maxCount: 4,
    });
    expect((await api.get(`/appointment-types/${none.type}`)).body).not.toHaveProperty(
      'recurrence',
    );
    const refused = await api.put(`/appointment-types/${none.type}`, {
      recurrence: { frequencies: ['yearly'], maxCount: 4 },
    });
    expect(refused).toMatchObject(
      apiError(
        400,
        'invalid_recurrence',
        'The recurrence must be {"frequencies": [one or more of daily, weekly, monthly], "maxCount": 2 to 52}, or null.',
      ),
    );
  });

  it('takes one use of a certificate per occurrence; too few uses refuse the whole series', async () => {
    const s = await shop(NY, { price: 30 });
    const product = await api.post('/products', {
      name: 'Three visits',
      price: 80,
      type: 'appointments',
      appointmentTypeCounts: { [s.type]: 3 },
    });
    const issued = await api.post('/certificates', { productID: product.body.id });
    const code = issued.body.certificate as string;
    const base = { appointmentTypeID: s.type, calendarID: s.calendar, certificate: code };
    await expect(
      book({ ...base, datetime: '2030-06-03T09:00', recurrence: weekly(4) }),
    ).resolves.toMatchObject(
      apiError(
        400,
        'certificate_uses',
        `The certificate "${code}" has no remaining uses for appointment type "${s.type}".`,
      ),
    );
    expect(await appointmentsOf(s.type)).toBe(0);
    const res = await book({ ...base, datetime: '2030-06-03T09:00', recurrence: weekly(3) });
    expect(res.status).toBe(200);
    expect(
      (res.body.appointments as { priceSold: string; certificate: string }[]).map((a) => [
        a.priceSold,
        a.certificate,
      ]),
    ).toEqual([
      ['0.00', code],
      ['0.00', code],
      ['0.00', code],
    ]);
  });

  it('books a class type as a series only into sessions with a seat, one seat each', async () => {
    const calendar = await createCalendar(api, { timezone: NY, hours: WEEKDAYS });
    const yoga = await createAppointmentType(api, {
      duration: 60,
      type: 'class',
      classSize: 1,
      calendarIDs: [calendar],
      ...HORIZON,
      recurrence: ANY_SERIES,
    });
    for (const day of ['2030-06-03', '2030-06-10', '2030-06-17'])
      expect(
        (
          await api.post('/classes', {
            appointmentTypeID: yoga,
            calendarID: calendar,
            datetime: `${day}T18:00`,
          })
        ).status,
      ).toBe(200);
    const series = { appointmentTypeID: yoga, calendarID: calendar, datetime: '2030-06-03T18:00' };

    // The 4th week has no session: refused whole, naming it.
    expect(await book({ ...series, recurrence: weekly(4) })).toMatchObject({
      status: 400,
      body: {
        error: 'not_available',
        unavailable: ['2030-06-24T18:00:00-0400'],
      },
    });
    expect(await appointmentsOf(yoga)).toBe(0);

    const booked = await book({ ...series, recurrence: weekly(3) });
    expect(booked.status).toBe(200);
    expect(await appointmentsOf(yoga)).toBe(3);
    // Each session's one seat is taken: a second series finds none.
    expect(await book({ ...series, recurrence: weekly(2) })).toMatchObject({
      status: 400,
      body: {
        error: 'not_available',
        unavailable: ['2030-06-03T18:00:00-0400', '2030-06-10T18:00:00-0400'],
      },
    });
    expect(await appointmentsOf(yoga)).toBe(3);
  });

  it('books as an admin on the calendar named, whatever its time holds', async () => {
    const s = await shop();
    const res = await book(
      {
        appointmentTypeID: s.type,
        calendarID: s.calendar,
        datetime: '2030-06-02T23:00',
        recurrence: { frequency: 'daily', count: 2 },
      },
      '?admin=true',
    );
    expect(res.status).toBe(200);
    expect((res.body.appointments as unknown[]).length).toBe(2);
  });

  it('answers the series it booked when sent again with its Idempotency-Key', async () => {
    const s = await shop();
    const send = async (key: string, datetime = '2030-06-06T11:00') => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/appointment-series',
        headers: { authorization, 'content-type': 'application/json', 'idempotency-key': key },
        payload: JSON.stringify({
          ...client,
          appointmentTypeID: s.type,
          datetime,
          recurrence: weekly(3),
        }),
      });
      return { status: res.statusCode, body: res.json() };
    };
    const key = `series-${s.type}`;
    const first = await send(key);
    expect(first.status).toBe(200);
    expect(await send(key)).toEqual(first);
    expect(await seriesOf(s.type)).toBe(1);
    expect(await appointmentsOf(s.type)).toBe(3);
    // Another request with the key: refused, as POST /appointments refuses it.
    expect((await send(key, '2030-06-07T11:00')).body.error).toBe('idempotency_key_reused');
  });

  it('checks every occurrence as the booking would (check-series), writing nothing', async () => {
    const s = await shop();
    await api.post('/appointments', {
      ...client,
      appointmentTypeID: s.type,
      calendarID: s.calendar,
      datetime: '2030-06-17T09:00',
    });
    const res = await api.post('/availability/check-series', {
      appointmentTypeID: s.type,
      calendarID: s.calendar,
      datetime: '2030-06-03T09:00',
      recurrence: weekly(4),
    });
    expect(res).toMatchObject({
      status: 200,
      body: [
        { datetime: '2030-06-03T09:00:00-0400', valid: true },
        { datetime: '2030-06-10T09:00:00-0400', valid: true },
        { datetime: '2030-06-17T09:00:00-0400', valid: false, reason: 'not_available' },
        { datetime: '2030-06-24T09:00:00-0400', valid: true },
      ],
    });
    expect(await seriesOf(s.type)).toBe(0);
    expect(await appointmentsOf(s.type)).toBe(1);
    // The series' own occurrences count: a limit of 1 a week refuses a daily series' 2nd.
    const limited = await shop(NY, { maxPerWeek: 1 });
    const daily = await api.post('/availability/check-series', {
      appointmentTypeID: limited.type,
      datetime: '2030-06-03T09:00',
      recurrence: { frequency: 'daily', count: 2 },
    });
    expect((daily.body as { valid: boolean }[]).map((o) => o.valid)).toEqual([true, false]);
  });

  it('cancels the rest of a series, each occurrence with its own canceled event', async () => {
    const s = await shop();
    const { body } = await book({
      appointmentTypeID: s.type,
      datetime: '2030-06-07T13:00',
      recurrence: weekly(4),
    });
    const res = await api.put(`/appointment-series/${body.id}/cancel`, { cancelNote: 'Moving' });
    expect(res.status).toBe(200);
    expect((res.body.appointments as { canceled: boolean }[]).map((a) => a.canceled)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(await appointmentsOf(s.type)).toBe(0);
    expect(await eventsOf(s.type, 'appointment.canceled')).toBe(4);
    // Again: nothing left to cancel, nothing sent.
    expect((await api.put(`/appointment-series/${body.id}/cancel`, {})).status).toBe(200);
    expect(await eventsOf(s.type, 'appointment.canceled')).toBe(4);
  });

  describe('storms', () => {
    const tally = (answers: ApiResponse[]) => answers.map((a) => a.status).sort();

    it('two 10-occurrence series sharing one occurrence, 20 parallel attempts each: one series stored whole', async () => {
      const s = await shop();
      // Weekly from Monday 06-03, and every 3 days from 06-12: they share Monday 06-24 at 9:00.
      const weeklySeries = {
        appointmentTypeID: s.type,
        calendarID: s.calendar,
        datetime: '2030-06-03T09:00',
        recurrence: weekly(10),
      };
      const everyThird = {
        appointmentTypeID: s.type,
        calendarID: s.calendar,
        datetime: '2030-06-12T09:00',
        recurrence: { frequency: 'daily', interval: 3, count: 10 },
      };
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => book(i % 2 ? weeklySeries : everyThird)),
      );
      expect(tally(answers).filter((status) => status === 200)).toHaveLength(1);
      expect(answers.every((a) => a.status === 200 || a.status === 400)).toBe(true);
      expect(await seriesOf(s.type)).toBe(1);
      expect(await appointmentsOf(s.type)).toBe(10);
      expect(await eventsOf(s.type, 'appointment.scheduled')).toBe(10);
    });

    it('a series against 30 parallel single bookings of its 5th occurrence: the series or one single', async () => {
      const s = await shop();
      const fifth = '2030-07-01T09:00';
      const answers = await Promise.all([
        book({
          appointmentTypeID: s.type,
          calendarID: s.calendar,
          datetime: '2030-06-03T09:00',
          recurrence: weekly(6),
        }),
        ...Array.from({ length: 30 }, () =>
          api.post('/appointments', {
            ...client,
            appointmentTypeID: s.type,
            calendarID: s.calendar,
            datetime: fifth,
          }),
        ),
      ]);
      const [series, ...singles] = answers;
      const singlesBooked = singles.filter((a) => a.status === 200).length;
      if (series.status === 200) {
        expect(singlesBooked).toBe(0);
        expect(await appointmentsOf(s.type)).toBe(6);
      } else {
        expect(series.body.unavailable).toEqual(['2030-07-01T09:00:00-0400']);
        expect(singlesBooked).toBe(1);
        expect(await appointmentsOf(s.type)).toBe(1);
        expect(await seriesOf(s.type)).toBe(0);
      }
    });
  });
});
