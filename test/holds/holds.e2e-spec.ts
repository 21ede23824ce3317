import { createHash } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { type TestAccount, createAccount, startApi } from '../support/test-app';
import {
  HORIZON,
  HOURS,
  MONDAY,
  client,
  expireHold,
  liveAppointments,
  liveHolds,
  offeredTimes,
} from './hold-fixtures';

/** The life of a slot hold over HTTP: made, seen, extended, released, booked (e2e, MySQL). */
describe('/slot-holds (e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let api: ApiClient;
  let account: TestAccount;

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
    account = await createAccount(app, { timezone: 'America/New_York' });
    api = apiClient(app, account);
  });

  afterAll(() => app.close());

  async function service(attributes: Record<string, unknown> = {}) {
    const calendar = await createCalendar(api, { hours: HOURS });
    const type = await createAppointmentType(api, {
      duration: 60,
      calendarIDs: [calendar],
      ...HORIZON,
      ...attributes,
    });
    return { calendar, type };
  }

  async function outboxRows(type: number): Promise<number> {
    const [row] = await db.query<{ n: string }[]>(
      "SELECT COUNT(*) AS n FROM outbox WHERE JSON_VALUE(payload, '$.appointmentTypeId') = ?",
      [type],
    );
    return Number(row.n);
  }

  it('holds a time: the token once, only its hash stored; the time is gone for everyone else', async () => {
    const { calendar, type } = await service();
    const before = Date.now();
    const held = await api.post('/slot-holds', {
      appointmentTypeID: type,
      calendarID: calendar,
      datetime: `${MONDAY}T09:00`,
    });
    expect(held.status).toBe(200);
    const { id, token, expiresAt } = held.body as { id: number; token: string; expiresAt: string };
    expect(held.body).toEqual({
      id,
      appointmentTypeID: type,
      calendarID: calendar,
      datetime: `${MONDAY}T09:00:00-0400`,
      expiresAt,
      token,
    });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Five minutes by default.
    const lasts = Date.parse(expiresAt.replace(/(\d\d)(\d\d)$/, '$1:$2')) - before;
    expect(lasts).toBeGreaterThan(4 * 60_000);
    expect(lasts).toBeLessThanOrEqual(5 * 60_000 + 1000);
    const [row] = await db.query<{ tokenHash: Buffer }[]>(
      'SELECT token_hash AS tokenHash FROM slot_holds WHERE id = ?',
      [id],
    );
    expect(Buffer.from(row.tokenHash).equals(createHash('sha256').update(token).digest())).toBe(
      true,
    );

    expect(await api.get(`/slot-holds/${id}`)).toMatchObject({
      status: 200,
      body: { id, appointmentTypeID: type, calendarID: calendar, datetime: held.body.datetime },
    });
    expect((await api.get(`/slot-holds/${id}`)).body).not.toHaveProperty('token');
    expect(await offeredTimes(api, type, calendar)).not.toContain('09:00');
    expect(await offeredTimes(api, type, calendar)).toContain('10:00');
    const taken = `The time "${MONDAY}T09:00" is not an available time slot.`;
    const booking = { ...client, appointmentTypeID: type, datetime: `${MONDAY}T09:00` };
    expect(await api.post('/appointments', { ...booking, calendarID: calendar })).toMatchObject(
      apiError(400, 'not_available', taken),
    );
    expect(await api.post('/appointments', booking)).toMatchObject(
      apiError(400, 'no_available_calendar', 'We could not find an available calendar.'),
    );
    expect(
      await api.post('/slot-holds', {
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: `${MONDAY}T09:00`,
      }),
    ).toMatchObject(apiError(400, 'not_available', taken));
    // A hold sends nothing to webhooks.
    expect(await outboxRows(type)).toBe(0);

    // The holder books it; the hold becomes the appointment, and its token is spent.
    const booked = await api.post('/appointments', { ...booking, holdToken: token });
    expect(booked).toMatchObject({
      status: 200,
      body: { calendarID: calendar, datetime: `${MONDAY}T09:00:00-0400` },
    });
    expect(await outboxRows(type)).toBe(1);
    expect(await liveHolds(db, calendar)).toBe(0);
    expect(await api.get(`/slot-holds/${id}`)).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
    expect(
      await api.post('/appointments', {
        ...booking,
        datetime: `${MONDAY}T10:00`,
        holdToken: token,
      }),
    ).toMatchObject(
      apiError(400, 'invalid_hold_token', 'The hold token is unknown, or its hold has ended.'),
    );
  });

  it('released or expired, the time is offered and bookable again at once', async () => {
    const { calendar, type } = await service();
    const hold = async () =>
      (
        await api.post('/slot-holds', {
          appointmentTypeID: type,
          datetime: `${MONDAY}T11:00`,
          minutes: 2,
        })
      ).body as { id: number; token: string; calendarID: number };
    const first = await hold();
    expect(first.calendarID).toBe(calendar);
    expect(await offeredTimes(api, type, calendar)).not.toContain('11:00');
    expect((await api.delete(`/slot-holds/${first.id}`)).status).toBe(204);
    expect(await offeredTimes(api, type, calendar)).toContain('11:00');
    expect(await api.delete(`/slot-holds/${first.id}`)).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );

    const second = await hold();
    await expireHold(db, second.id);
    expect(await offeredTimes(api, type, calendar)).toContain('11:00');
    expect(await api.get(`/slot-holds/${second.id}`)).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
    expect(await api.put(`/slot-holds/${second.id}`, { minutes: 5 })).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
    const booking = { ...client, appointmentTypeID: type, datetime: `${MONDAY}T11:00` };
    // Its holder's token has ended with it.
    expect(await api.post('/appointments', { ...booking, holdToken: second.token })).toMatchObject(
      apiError(400, 'invalid_hold_token', 'The hold token is unknown, or its hold has ended.'),
    );
    expect((await api.post('/appointments', booking)).status).toBe(200);
  });

  it('extends a hold within the longest an account allows, counted from when it was made', async () => {
    const owner = apiClient(app, await createAccount(app));
    expect((await owner.put('/settings', { holdMaxMinutes: 10 })).body).toMatchObject({
      holdMaxMinutes: 10,
    });
    const calendar = await createCalendar(owner, { hours: HOURS });
    const type = await createAppointmentType(owner, {
      duration: 60,
      calendarIDs: [calendar],
      ...HORIZON,
    });
    const at = { appointmentTypeID: type, datetime: `${MONDAY}T09:00` };
    expect(await owner.post('/slot-holds', { ...at, minutes: 11 })).toMatchObject(
      apiError(400, 'invalid_minutes', 'The minutes must be a whole number from 1 to 10.'),
    );
    const held = await owner.post('/slot-holds', { ...at, minutes: 1 });
    expect(held.status).toBe(200);
    const { id } = held.body as { id: number };
    const before = Date.now();
    const extended = await owner.put(`/slot-holds/${id}`, { minutes: 9 });
    expect(extended.status).toBe(200);
    const ends = Date.parse(
      (extended.body as { expiresAt: string }).expiresAt.replace(/(\d\d)(\d\d)$/, '$1:$2'),
    );
    expect(ends - before).toBeGreaterThan(8 * 60_000);
    expect((await owner.get(`/slot-holds/${id}`)).body).toEqual(extended.body);
    // Made a while ago: 10 minutes from its creation is past.
    await db.query('UPDATE slot_holds SET created_at = ? WHERE id = ?', [
      new Date(Date.now() - 3 * 60_000),
      id,
    ]);
    expect(await owner.put(`/slot-holds/${id}`, { minutes: 8 })).toMatchObject(
      apiError(400, 'invalid_minutes', 'A hold lasts at most 10 minutes from when it was made.'),
    );
    expect((await owner.put(`/slot-holds/${id}`, { minutes: 6 })).status).toBe(200);
    expect(await owner.put(`/slot-holds/${id}`, {})).toMatchObject(
      apiError(400, 'required_minutes', 'The parameter "minutes" is required.'),
    );
    for (const minutes of [0, 11, 2.5, '5', true])
      expect(await owner.put(`/slot-holds/${id}`, { minutes })).toMatchObject(
        apiError(400, 'invalid_minutes', 'The minutes must be a whole number from 1 to 10.'),
      );
  });

  it('a class hold takes one seat; its holder books it even when the others are taken', async () => {
    const calendar = await createCalendar(api, { name: 'Studio', hours: HOURS });
    const yoga = await createAppointmentType(api, {
      name: 'Yoga',
      duration: 60,
      type: 'class',
      classSize: 2,
      calendarIDs: [calendar],
      ...HORIZON,
    });
    const session = await api.post('/classes', {
      appointmentTypeID: yoga,
      calendarID: calendar,
      datetime: `${MONDAY}T10:00`,
    });
    expect(session.status).toBe(200);
    const at = { appointmentTypeID: yoga, calendarID: calendar, datetime: `${MONDAY}T10:00` };
    const held = await api.post('/slot-holds', at);
    expect(held.status).toBe(200);
    const times = await api.get(
      `/availability/times?appointmentTypeID=${yoga}&calendarID=${calendar}&date=${MONDAY}`,
    );
    expect(times.body).toEqual([{ time: `${MONDAY}T10:00:00-0400`, slotsAvailable: 1 }]);
    expect((await api.post('/appointments', { ...client, ...at })).status).toBe(200);
    expect(await api.post('/appointments', { ...client, ...at })).toMatchObject(
      apiError(400, 'not_available', `The time "${MONDAY}T10:00" is not an available time slot.`),
    );
    expect(await api.post('/slot-holds', at)).toMatchObject(
      apiError(400, 'not_available', `The time "${MONDAY}T10:00" is not an available time slot.`),
    );
    const { token } = held.body as { token: string };
    expect((await api.post('/appointments', { ...client, ...at, holdToken: token })).status).toBe(
      200,
    );
    expect(await liveAppointments(db, 'appointment_type_id = ?', [yoga])).toBe(2);
  });

  it('a token books only the type, time and calendar it holds', async () => {
    const { calendar, type } = await service();
    const other = await createCalendar(api, { hours: HOURS });
    await api.put(`/appointment-types/${type}`, { calendarIDs: [calendar, other] });
    const held = await api.post('/slot-holds', {
      appointmentTypeID: type,
      calendarID: calendar,
      datetime: `${MONDAY}T13:00`,
    });
    const { token } = held.body as { token: string };
    const booking = { ...client, appointmentTypeID: type, holdToken: token };
    expect(
      await api.post('/appointments', { ...booking, datetime: `${MONDAY}T14:00` }),
    ).toMatchObject(
      apiError(
        400,
        'invalid_hold_token',
        `The hold is not for the appointment type, calendar and time "${MONDAY}T14:00" booked.`,
      ),
    );
    expect(
      await api.post('/appointments', {
        ...booking,
        calendarID: other,
        datetime: `${MONDAY}T13:00`,
      }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_hold_token' } });
    // Without a calendar named, the booking goes on the hold's calendar.
    const booked = await api.post('/appointments', { ...booking, datetime: `${MONDAY}T13:00` });
    expect(booked).toMatchObject({ status: 200, body: { calendarID: calendar } });
  });

  it('pay then book: the booking with holdToken sent again with its Idempotency-Key answers the same appointment', async () => {
    const { calendar, type } = await service();
    const at = { appointmentTypeID: type, calendarID: calendar, datetime: `${MONDAY}T15:00` };
    const held = await api.post('/slot-holds', { ...at, minutes: 10 });
    const { id, token } = held.body as { id: number; token: string };
    expect((await api.put(`/slot-holds/${id}`, { minutes: 15 })).status).toBe(200);
    const book = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/appointments',
        headers: {
          authorization: account.authorization,
          'content-type': 'application/json',
          'idempotency-key': `pay-${id}`,
        },
        payload: JSON.stringify({ ...client, ...at, holdToken: token }),
      });
    const first = await book();
    const again = await book();
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json<{ id: number }>().id).toBe(first.json<{ id: number }>().id);
    expect(await liveAppointments(db, 'calendar_id = ?', [calendar])).toBe(1);
  });
});
