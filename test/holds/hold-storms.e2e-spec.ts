import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';
import {
  HORIZON,
  HOURS,
  MONDAY,
  client,
  expireHold,
  liveAppointments,
  liveHolds,
  offeredTimes,
  tally,
} from './hold-fixtures';

/**
 * Concurrency claims of holds and booking limits, each checked in MySQL after a storm of parallel
 * requests.
 */
describe('slot holds and booking limits under concurrency (e2e, invariants checked in MySQL)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let api: ApiClient;

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
    api = apiClient(app, await createAccount(app, { timezone: 'America/New_York' }));
  });

  afterAll(() => app.close());

  async function service(attributes: Record<string, unknown> = {}, calendars = 1) {
    const ids: number[] = [];
    for (let i = 0; i < calendars; i++)
      ids.push(await createCalendar(api, { name: `Chair ${i}`, hours: HOURS }));
    const type = await createAppointmentType(api, {
      duration: 60,
      calendarIDs: ids,
      ...HORIZON,
      ...attributes,
    });
    return { calendars: ids, type };
  }

  /** Live holds and appointments of the calendars whose busy spans overlap (there must be none). */
  async function overlaps(calendarIds: number[]): Promise<unknown[]> {
    const now = new Date();
    return db.query(
      `SELECT x.kind, x.id, y.kind AS otherKind, y.id AS otherId FROM
         (SELECT 'hold' AS kind, id, calendar_id, busy_from, busy_until FROM slot_holds
           WHERE calendar_id IN (?) AND expires_at > ?
          UNION ALL
          SELECT 'appointment', id, calendar_id, busy_from, busy_until FROM appointments
           WHERE calendar_id IN (?) AND canceled = 0) x
       JOIN
         (SELECT 'hold' AS kind, id, calendar_id, busy_from, busy_until FROM slot_holds
           WHERE calendar_id IN (?) AND expires_at > ?
          UNION ALL
          SELECT 'appointment', id, calendar_id, busy_from, busy_until FROM appointments
           WHERE calendar_id IN (?) AND canceled = 0) y
         ON y.calendar_id = x.calendar_id AND (y.kind > x.kind OR (y.kind = x.kind AND y.id > x.id))
        AND x.busy_from < y.busy_until AND y.busy_from < x.busy_until`,
      [calendarIds, now, calendarIds, calendarIds, now, calendarIds],
    );
  }

  it('100 parallel holds of one slot: exactly one holds it', async () => {
    const { calendars, type } = await service();
    const at = { appointmentTypeID: type, calendarID: calendars[0], datetime: `${MONDAY}T10:00` };
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => api.post('/slot-holds', at)),
    );
    expect(tally(answers)).toEqual({ '200': 1, '400 not_available': 99 });
    expect(await liveHolds(db, calendars[0])).toBe(1);
    expect(await overlaps(calendars)).toEqual([]);
  });

  it('a hold and 50 parallel bookings of the held slot: every booking refused, then the holder books', async () => {
    const { calendars, type } = await service();
    const at = { appointmentTypeID: type, calendarID: calendars[0], datetime: `${MONDAY}T11:00` };
    const held = await api.post('/slot-holds', at);
    expect(held.status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api.post('/appointments', { ...client, email: `c${i}@example.com`, ...at }),
      ),
    );
    expect(tally(answers)).toEqual({ '400 not_available': 50 });
    expect(await liveAppointments(db, 'calendar_id = ?', [calendars[0]])).toBe(0);

    const { token } = held.body as { token: string };
    expect((await api.post('/appointments', { ...client, ...at, holdToken: token })).status).toBe(
      200,
    );
    expect(await liveAppointments(db, 'calendar_id = ?', [calendars[0]])).toBe(1);
    expect(await liveHolds(db, calendars[0])).toBe(0);
    expect(await overlaps(calendars)).toEqual([]);
  });

  it('the holder and others race for a held slot with its token sent twice: one booking, the holder’s', async () => {
    const { calendars, type } = await service();
    const at = { appointmentTypeID: type, calendarID: calendars[0], datetime: `${MONDAY}T12:00` };
    const { token } = (await api.post('/slot-holds', at)).body as { token: string };
    const answers = await Promise.all([
      ...Array.from({ length: 20 }, () => api.post('/appointments', { ...client, ...at })),
      api.post('/appointments', {
        ...client,
        email: 'holder@example.com',
        ...at,
        holdToken: token,
      }),
      api.post('/appointments', {
        ...client,
        email: 'holder@example.com',
        ...at,
        holdToken: token,
      }),
    ]);
    // The token's second booking finds the hold spent (invalid_hold_token), or, when it checked the
    // token before the first committed, the time taken by the first (not_available).
    const { '200': booked, ...refused } = tally(answers);
    expect(booked).toBe(1);
    for (const key of Object.keys(refused))
      expect(['400 not_available', '400 invalid_hold_token']).toContain(key);
    expect(Object.values(refused).reduce((a, b) => a + b)).toBe(21);
    expect(refused['400 not_available']).toBeGreaterThanOrEqual(20);
    const [row] = await db.query<{ email: string }[]>(
      'SELECT email FROM appointments WHERE calendar_id = ? AND canceled = 0',
      [calendars[0]],
    );
    expect(row.email).toBe('holder@example.com');
  });

  it('a hold that expires: the slot is offered and bookable again at once', async () => {
    const { calendars, type } = await service();
    const at = { appointmentTypeID: type, calendarID: calendars[0], datetime: `${MONDAY}T13:00` };
    const { id } = (await api.post('/slot-holds', { ...at, minutes: 1 })).body as { id: number };
    expect(await offeredTimes(api, type, calendars[0])).not.toContain('13:00');
    await expireHold(db, id);
    expect(await offeredTimes(api, type, calendars[0])).toContain('13:00');
    // The first of 20 parallel bookings takes it, the row of the expired hold still there.
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api.post('/appointments', { ...client, ...at })),
    );
    expect(tally(answers)).toEqual({ '200': 1, '400 not_available': 19 });
    expect(await liveAppointments(db, 'calendar_id = ?', [calendars[0]])).toBe(1);
    const [row] = await db.query<{ n: string }[]>(
      'SELECT COUNT(*) AS n FROM slot_holds WHERE id = ?',
      [id],
    );
    expect(Number(row.n)).toBe(1);
  });

  it('a limit of 3 a day on a type of 3 calendars, 30 parallel bookings: exactly 3', async () => {
    const { calendars, type } = await service({ duration: 15, maxPerDay: 3 }, 3);
    // 30 different slots over the three calendars: only the type's limit can refuse them.
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const quarter = 36 + Math.floor(i / 3);
        const time = `${String(Math.floor(quarter / 4)).padStart(2, '0')}:${String((quarter % 4) * 15).padStart(2, '0')}`;
        return api.post('/appointments', {
          ...client,
          appointmentTypeID: type,
          calendarID: calendars[i % 3],
          datetime: `${MONDAY}T${time}`,
        });
      }),
    );
    expect(tally(answers)).toEqual({ '200': 3, '400 not_available': 27 });
    expect(await liveAppointments(db, 'appointment_type_id = ?', [type])).toBe(3);
    for (const calendar of calendars) expect(await offeredTimes(api, type, calendar)).toEqual([]);
    // An admin is exempt: a fourth that day.
    expect(
      (
        await api.post('/appointments?admin=true', {
          ...client,
          appointmentTypeID: type,
          calendarID: calendars[0],
          datetime: `${MONDAY}T16:00`,
        })
      ).status,
    ).toBe(200);
  });

  it('a limit of 3 a day on a calendar, 30 parallel bookings of its types: exactly 3', async () => {
    const calendar = await createCalendar(api, { name: 'Busy', hours: HOURS, maxPerDay: 3 });
    const types: number[] = [];
    for (let i = 0; i < 3; i++)
      types.push(
        await createAppointmentType(api, { duration: 15, calendarIDs: [calendar], ...HORIZON }),
      );
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const quarter = 36 + i;
        const time = `${String(Math.floor(quarter / 4)).padStart(2, '0')}:${String((quarter % 4) * 15).padStart(2, '0')}`;
        return api.post('/appointments', {
          ...client,
          appointmentTypeID: types[i % 3],
          calendarID: calendar,
          datetime: `${MONDAY}T${time}`,
        });
      }),
    );
    expect(tally(answers)).toEqual({ '200': 3, '400 not_available': 27 });
    expect(await liveAppointments(db, 'calendar_id = ?', [calendar])).toBe(3);
  });

  it('holds count toward a limit: 2 a day, one held, 10 parallel bookings: one more', async () => {
    const { calendars, type } = await service({ duration: 30, maxPerDay: 2 });
    const held = await api.post('/slot-holds', {
      appointmentTypeID: type,
      datetime: `${MONDAY}T09:00`,
    });
    expect(held.status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api.post('/appointments', {
          ...client,
          appointmentTypeID: type,
          datetime: `${MONDAY}T${String(10 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`,
        }),
      ),
    );
    expect(tally(answers)).toEqual({ '200': 1, '400 no_available_calendar': 9 });
    // The holder still books: its hold is what the limit counted.
    const { token } = held.body as { token: string };
    const booked = await api.post('/appointments', {
      ...client,
      appointmentTypeID: type,
      datetime: `${MONDAY}T09:00`,
      holdToken: token,
    });
    expect(booked.status).toBe(200);
    expect(await liveAppointments(db, 'calendar_id = ?', [calendars[0]])).toBe(2);
    expect(
      await api.post('/slot-holds', { appointmentTypeID: type, datetime: `${MONDAY}T16:00` }),
    ).toMatchObject(
      apiError(400, 'no_available_calendar', 'We could not find an available calendar.'),
    );
  });
});
