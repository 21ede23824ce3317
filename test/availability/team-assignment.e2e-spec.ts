import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';
import { HORIZON, NINE_TO_FIVE, client } from '../holds/hold-fixtures';

/** The `n` hour starts from Monday 2030-06-03 09:00 on (8 a day), as New York datetimes. */
const hours = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => {
    const day = 3 + Math.floor((from + i) / 8);
    const hour = 9 + ((from + i) % 8);
    return `2030-06-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00`;
  });

/** Bookings that name no calendar land where the type's assignment says (docs/team-scheduling.md). */
describe('team assignment: round-robin and balanced bookings (e2e)', () => {
  let app: NestFastifyApplication;
  let api: ApiClient;
  let db: DataSource;

  beforeAll(async () => {
    app = await startApi();
    api = apiClient(app, await createAccount(app, { timezone: 'America/New_York' }));
    db = app.get(DataSource);
  });

  afterAll(() => app.close());

  const team = async (n: number) => {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) ids.push(await createCalendar(api, { hours: NINE_TO_FIVE }));
    return ids;
  };

  const book = async (type: number, datetime: string, extra: Record<string, unknown> = {}) => {
    const res = await api.post('/appointments', {
      ...client,
      appointmentTypeID: type,
      datetime,
      ...extra,
    });
    if (res.status !== 200)
      throw new Error(`${datetime} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: number; calendarID: number };
  };

  /** Live appointments of the type per calendar, as MySQL has them (in `calendars`' order). */
  const counts = async (type: number, calendars: number[]) => {
    const rows = await db.query<{ calendarId: number; n: string }[]>(
      `SELECT calendar_id AS calendarId, COUNT(*) AS n FROM appointments
        WHERE appointment_type_id = ? AND canceled = 0 GROUP BY calendar_id`,
      [type],
    );
    return calendars.map((c) => Number(rows.find((r) => Number(r.calendarId) === c)?.n ?? 0));
  };

  const roundRobin = (calendarIDs: number[], more: Record<string, unknown> = {}) =>
    createAppointmentType(api, {
      duration: 60,
      calendarIDs,
      assignment: 'round-robin',
      ...HORIZON,
      ...more,
    });

  it('round-robin: 3 calendars all free take 10 each of 30 bookings, in turn', async () => {
    const calendars = await team(3);
    const type = await roundRobin(calendars);
    const taken: number[] = [];
    for (const datetime of hours(30)) taken.push((await book(type, datetime)).calendarID);
    expect(taken.slice(0, 6)).toEqual([...calendars, ...calendars]);
    expect(await counts(type, calendars)).toEqual([10, 10, 10]);
  });

  it('round-robin with weights 2:1:1: 40 bookings go 20/10/10', async () => {
    const calendars = await team(3);
    const type = await roundRobin(calendars, { weights: { [calendars[0]]: 2 } });
    for (const datetime of hours(40)) await book(type, datetime);
    expect(await counts(type, calendars)).toEqual([20, 10, 10]);
  });

  it('round-robin: 30 bookings of 30 different times in parallel stay within 1 of each other', async () => {
    const calendars = await team(3);
    const type = await roundRobin(calendars);
    await Promise.all(hours(30).map((datetime) => book(type, datetime)));
    const byCalendar = await counts(type, calendars);
    expect(byCalendar.reduce((a, b) => a + b)).toBe(30);
    expect(Math.max(...byCalendar) - Math.min(...byCalendar)).toBeLessThanOrEqual(1);
  });

  it('round-robin: a busy calendar is skipped, then takes the next booking it can; calendarID bypasses', async () => {
    const [a, b, c] = await team(3);
    const type = await roundRobin([a, b, c]);
    // A block makes `a` busy on Monday morning.
    expect(
      (
        await api.post('/blocks', {
          calendarID: a,
          start: '2030-06-03T09:00',
          end: '2030-06-03T12:00',
        })
      ).status,
    ).toBe(200);
    const monday = hours(3);
    const taken = [];
    for (const datetime of monday) taken.push((await book(type, datetime)).calendarID);
    expect(taken).toEqual([b, c, b]);
    // `a` has gone longest without one: it takes the next, then the rotation goes on.
    const afternoon = hours(3, 3);
    taken.length = 0;
    for (const datetime of afternoon) taken.push((await book(type, datetime)).calendarID);
    expect(taken).toEqual([a, c, b]);
    // A booking naming its calendar is not assigned, but it is that calendar's turn.
    expect((await book(type, hours(1, 6)[0], { calendarID: b })).calendarID).toBe(b);
    expect((await book(type, hours(1, 7)[0])).calendarID).toBe(a);
  });

  it('round-robin: a hold without calendarID takes the next calendar, and its booking its turn', async () => {
    const calendars = await team(2);
    const type = await roundRobin(calendars);
    const [first, second, third] = hours(3);
    const hold = await api.post('/slot-holds', { appointmentTypeID: type, datetime: first });
    expect(hold.status).toBe(200);
    const { calendarID, token } = hold.body as { calendarID: number; token: string };
    expect(calendarID).toBe(calendars[0]);
    const booked = await book(type, first, { holdToken: token });
    expect(booked.calendarID).toBe(calendars[0]);
    expect((await book(type, second)).calendarID).toBe(calendars[1]);
    expect((await book(type, third)).calendarID).toBe(calendars[0]);
  });

  it('round-robin: a series goes to the next calendar and counts every occurrence', async () => {
    const calendars = await team(2);
    const type = await roundRobin(calendars, {
      recurrence: { frequencies: ['weekly'], maxCount: 12 },
    });
    expect((await book(type, hours(1)[0])).calendarID).toBe(calendars[0]);
    const series = await api.post('/appointment-series', {
      ...client,
      appointmentTypeID: type,
      datetime: hours(1, 1)[0],
      recurrence: { frequency: 'weekly', count: 3 },
    });
    expect(series.status).toBe(200);
    expect(series.body).toMatchObject({ calendarID: calendars[1] });
    // The series' 3 turns: calendar 0 takes the next two bookings to its 1.
    const next = [];
    for (const datetime of hours(3, 2)) next.push((await book(type, datetime)).calendarID);
    expect(next).toEqual([calendars[0], calendars[0], calendars[1]]);
  });

  it('round-robin: a client move without calendarID stays if it can, else goes to the next free calendar', async () => {
    const [a, b] = await team(2);
    const type = await roundRobin([a, b]);
    const [nine, ten, eleven] = hours(3);
    const first = await book(type, nine);
    expect(first.calendarID).toBe(a);
    // Free at ten: it stays on a.
    const moved = await api.put(`/appointments/${first.id}/reschedule`, { datetime: ten });
    expect(moved.body).toMatchObject({ calendarID: a });
    // a busy at eleven: it goes to b.
    await api.post('/blocks', { calendarID: a, start: eleven, end: '2030-06-03T12:00' });
    const again = await api.put(`/appointments/${first.id}/reschedule`, { datetime: eleven });
    expect(again.body).toMatchObject({ calendarID: b });
    // Both busy: refused as before.
    await api.post('/blocks', {
      calendarID: b,
      start: '2030-06-03T13:00',
      end: '2030-06-03T14:00',
    });
    await api.post('/blocks', {
      calendarID: a,
      start: '2030-06-03T13:00',
      end: '2030-06-03T14:00',
    });
    expect(
      await api.put(`/appointments/${first.id}/reschedule`, { datetime: '2030-06-03T13:00' }),
    ).toMatchObject(
      apiError(400, 'not_available', 'The time "2030-06-03T13:00" is not an available time slot.'),
    );
  });

  it('balanced: each booking goes to the fewest this week, never to a calendar busy at its time', async () => {
    const [a, b, c] = await team(3);
    const type = await createAppointmentType(api, {
      duration: 60,
      calendarIDs: [a, b, c],
      assignment: 'balanced',
      ...HORIZON,
    });
    // Last week's appointments do not count: a has 3 the week before.
    for (const datetime of ['2030-05-27T09:00', '2030-05-27T10:00', '2030-05-27T11:00'])
      await book(type, datetime, { calendarID: a });
    // This week b has 2, c has 1 (named).
    await book(type, '2030-06-04T09:00', { calendarID: b });
    await book(type, '2030-06-04T10:00', { calendarID: b });
    await book(type, '2030-06-04T09:00', { calendarID: c });
    expect((await book(type, '2030-06-05T09:00')).calendarID).toBe(a);
    expect((await book(type, '2030-06-05T10:00')).calendarID).toBe(a);
    // a 2, b 2, c 1: c — unless c is busy then, when a (ties: the lower id) takes it.
    await api.post('/blocks', {
      calendarID: c,
      start: '2030-06-05T11:00',
      end: '2030-06-05T12:00',
    });
    expect((await book(type, '2030-06-05T11:00')).calendarID).toBe(a);
    expect((await book(type, '2030-06-05T12:00')).calendarID).toBe(c);
    expect(await counts(type, [a, b, c])).toEqual([6, 2, 2]);
  });

  it("balanced with weights: a calendar of weight 2 takes twice the others' share of the week", async () => {
    const calendars = await team(3);
    const type = await createAppointmentType(api, {
      duration: 60,
      calendarIDs: calendars,
      assignment: 'balanced',
      weights: { [calendars[2]]: 2 },
      ...HORIZON,
    });
    for (const datetime of hours(40)) await book(type, datetime);
    expect(await counts(type, calendars)).toEqual([10, 10, 20]);
  });

  it('first: unchanged, the lowest id that is free', async () => {
    const calendars = await team(3);
    const type = await createAppointmentType(api, {
      duration: 60,
      calendarIDs: calendars,
      ...HORIZON,
    });
    for (const datetime of hours(5)) await book(type, datetime);
    expect(await counts(type, calendars)).toEqual([5, 0, 0]);
  });
});
