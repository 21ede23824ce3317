import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';
import { HORIZON, NINE_TO_FIVE, client } from '../holds/hold-fixtures';

const NOT_AVAILABLE = (datetime: string) =>
  apiError(400, 'not_available', `The time "${datetime}" is not an available time slot.`);

/** Collective types: every calendar of the type takes each appointment (docs/team-scheduling.md). */
describe('collective appointments (e2e)', () => {
  let app: NestFastifyApplication;
  let api: ApiClient;
  let db: DataSource;

  beforeAll(async () => {
    app = await startApi();
    api = apiClient(app, await createAccount(app, { timezone: 'America/New_York' }));
    db = app.get(DataSource);
  });

  afterAll(() => app.close());

  /** Three calendars, a collective type over them, and a single type over them. */
  const team = async () => {
    const calendars: number[] = [];
    for (const name of ['Ana', 'Ben', 'Cy'])
      calendars.push(await createCalendar(api, { name, hours: NINE_TO_FIVE }));
    const meeting = await createAppointmentType(api, {
      name: 'Panel',
      duration: 60,
      calendarIDs: calendars,
      collective: true,
      ...HORIZON,
    });
    const single = await createAppointmentType(api, {
      name: 'One to one',
      duration: 60,
      calendarIDs: calendars,
      ...HORIZON,
    });
    return { calendars, meeting, single };
  };

  const block = (calendarID: number, start: string, end: string) =>
    api.post('/blocks', { calendarID, start, end });

  const times = async (type: number, date = '2030-06-03', calendarID?: number) => {
    const named = calendarID === undefined ? '' : `&calendarID=${calendarID}`;
    const res = await api.get(`/availability/times?appointmentTypeID=${type}&date=${date}${named}`);
    expect(res.status).toBe(200);
    return (res.body as { time: string; slotsAvailable: number }[]).map(
      (t) => `${t.time.slice(11, 16)}×${t.slotsAvailable}`,
    );
  };

  const book = (type: number, datetime: string, extra: Record<string, unknown> = {}) =>
    api.post('/appointments', { ...client, appointmentTypeID: type, datetime, ...extra });

  it('offers only the times every calendar is free, once each', async () => {
    const { calendars, meeting, single } = await team();
    const [ana, ben, cy] = calendars;
    await block(ana, '2030-06-03T09:00', '2030-06-03T10:00');
    await block(ben, '2030-06-03T11:00', '2030-06-03T12:30');
    await block(cy, '2030-06-03T16:00', '2030-06-03T17:00');
    expect(await times(meeting)).toEqual(['10:00×1', '13:00×1', '14:00×1', '15:00×1']);
    // Naming a calendar names the host: the same times.
    expect(await times(meeting, '2030-06-03', ben)).toEqual(await times(meeting));
    // The single type still counts calendars.
    expect(await times(single)).toContain('09:00×2');
    const dates = await api.get(`/availability/dates?appointmentTypeID=${meeting}&month=2030-06`);
    expect(dates.body).toContainEqual({ date: '2030-06-03' });
  });

  it('books every calendar, the host first: each is busy, in its feed, until canceled', async () => {
    const { calendars, meeting, single } = await team();
    const [ana, ben, cy] = calendars;
    const res = await book(meeting, '2030-06-04T10:00');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ calendarID: ana, calendarIDs: [ana, ben, cy] });
    const { id } = res.body as { id: number };
    expect((await api.get(`/appointments/${id}`)).body).toMatchObject({
      calendarIDs: [ana, ben, cy],
    });
    // Each member is busy then: a single booking on any of them is refused.
    for (const calendarID of calendars)
      expect(await book(single, '2030-06-04T10:00', { calendarID })).toMatchObject(
        NOT_AVAILABLE('2030-06-04T10:00'),
      );
    expect(await times(single, '2030-06-04')).not.toContain('10:00×1');
    // In each member's feed.
    const feed = await api.get(`/calendars/${cy}/feed`);
    const published = await app.inject({ method: 'GET', url: new URL(feed.body.url).pathname });
    expect(published.body).toContain(`appointment-${id}@`);
    // A single appointment keeps the v1 shape.
    const one = await book(single, '2030-06-04T12:00');
    expect(one.body).not.toHaveProperty('calendarIDs');
    // Canceled: every calendar is free again.
    expect((await api.put(`/appointments/${id}/cancel`, {})).status).toBe(200);
    expect(await times(single, '2030-06-04')).toContain('10:00×3');
    const unpublished = await app.inject({ method: 'GET', url: new URL(feed.body.url).pathname });
    expect(unpublished.body).not.toContain(`appointment-${id}@`);
  });

  it("counts toward each member's booking limits, and lists under each member's calendarID", async () => {
    const { calendars, meeting, single } = await team();
    const [ana, ben] = calendars;
    expect((await api.put(`/calendars/${ben}`, { maxPerDay: 1 })).status).toBe(200);
    const { id } = (await book(meeting, '2030-06-13T09:00')).body as { id: number };
    // Ben's one a day is the meeting: no single booking of his that day, in availability or booking.
    expect(await book(single, '2030-06-13T13:00', { calendarID: ben })).toMatchObject(
      NOT_AVAILABLE('2030-06-13T13:00'),
    );
    expect(await times(single, '2030-06-13', ben)).toEqual([]);
    expect((await book(single, '2030-06-13T13:00', { calendarID: ana })).status).toBe(200);
    const listed = async (calendarID: number) =>
      (
        (
          await api.get(
            `/appointments?calendarID=${calendarID}&minDate=2030-06-13&maxDate=2030-06-13`,
          )
        ).body as { id: number }[]
      ).map((a) => a.id);
    expect(await listed(ben)).toEqual([id]);
    expect(await listed(ana)).toContain(id);
    // A live collective hold counts for its members as a hold does for its calendar.
    const hold = await api.post('/slot-holds', {
      appointmentTypeID: meeting,
      datetime: '2030-06-14T09:00',
    });
    expect(hold.status).toBe(200);
    expect(await book(single, '2030-06-14T13:00', { calendarID: ben })).toMatchObject(
      NOT_AVAILABLE('2030-06-14T13:00'),
    );
    expect((await api.delete(`/slot-holds/${(hold.body as { id: number }).id}`)).status).toBe(204);
    expect((await book(single, '2030-06-14T13:00', { calendarID: ben })).status).toBe(200);
  });

  it('refuses a time any calendar is busy at; a named calendar hosts', async () => {
    const { calendars, meeting } = await team();
    const [ana, ben, cy] = calendars;
    await block(cy, '2030-06-05T09:00', '2030-06-05T10:00');
    expect(await book(meeting, '2030-06-05T09:00')).toMatchObject(
      apiError(400, 'no_available_calendar', 'We could not find an available calendar.'),
    );
    expect(await book(meeting, '2030-06-05T09:00', { calendarID: ana })).toMatchObject(
      NOT_AVAILABLE('2030-06-05T09:00'),
    );
    const hosted = await book(meeting, '2030-06-05T10:00', { calendarID: ben });
    expect(hosted.body).toMatchObject({ calendarID: ben, calendarIDs: [ben, ana, cy] });
  });

  it('moves every calendar together, and only where all are free', async () => {
    const { calendars, meeting, single } = await team();
    const [ana, , cy] = calendars;
    const { id } = (await book(meeting, '2030-06-06T10:00')).body as { id: number };
    await block(cy, '2030-06-06T14:00', '2030-06-06T15:00');
    expect(
      await api.put(`/appointments/${id}/reschedule`, { datetime: '2030-06-06T14:00' }),
    ).toMatchObject(NOT_AVAILABLE('2030-06-06T14:00'));
    const moved = await api.put(`/appointments/${id}/reschedule`, { datetime: '2030-06-06T15:00' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ calendarID: ana, calendarIDs: calendars });
    // The old time is free on every calendar, the new one busy on each.
    expect(await times(single, '2030-06-06')).toContain('10:00×3');
    expect(await book(single, '2030-06-06T15:00', { calendarID: cy })).toMatchObject(
      NOT_AVAILABLE('2030-06-06T15:00'),
    );
    // An admin may move it anywhere: the members follow.
    const admin = await api.put(`/appointments/${id}/reschedule?admin=true`, {
      datetime: '2030-06-06T14:00',
    });
    expect(admin.status).toBe(200);
    const members = await db.query<{ calendarId: number; busyFrom: Date }[]>(
      'SELECT calendar_id AS calendarId, busy_from AS busyFrom FROM appointment_members WHERE appointment_id = ? ORDER BY calendar_id',
      [id],
    );
    expect(members.map((m) => [Number(m.calendarId), new Date(m.busyFrom).toISOString()])).toEqual(
      calendars.slice(1).map((c) => [c, '2030-06-06T18:00:00.000Z']),
    );
  });

  it('holds every calendar: the others are busy while held, and the hold books them all', async () => {
    const { calendars, meeting, single } = await team();
    const [ana, ben, cy] = calendars;
    const hold = await api.post('/slot-holds', {
      appointmentTypeID: meeting,
      datetime: '2030-06-07T11:00',
    });
    expect(hold.status).toBe(200);
    expect(hold.body).toMatchObject({ calendarID: ana, calendarIDs: [ana, ben, cy] });
    expect(await book(single, '2030-06-07T11:00', { calendarID: ben })).toMatchObject(
      NOT_AVAILABLE('2030-06-07T11:00'),
    );
    expect(await times(meeting, '2030-06-07')).not.toContain('11:00×1');
    const { token } = hold.body as { token: string };
    const booked = await book(meeting, '2030-06-07T11:00', { holdToken: token });
    expect(booked.status).toBe(200);
    expect(booked.body).toMatchObject({ calendarID: ana, calendarIDs: [ana, ben, cy] });
    // Released, a hold frees its members at once.
    const other = await api.post('/slot-holds', {
      appointmentTypeID: meeting,
      datetime: '2030-06-07T13:00',
    });
    const { id: holdId } = other.body as { id: number };
    expect((await api.delete(`/slot-holds/${holdId}`)).status).toBe(204);
    expect((await book(single, '2030-06-07T13:00', { calendarID: cy })).status).toBe(200);
  });

  it('books a series on every calendar', async () => {
    const { calendars, meeting } = await team();
    await api.put(`/appointment-types/${meeting}`, {
      recurrence: { frequencies: ['weekly'], maxCount: 4 },
    });
    const series = await api.post('/appointment-series', {
      ...client,
      appointmentTypeID: meeting,
      datetime: '2030-06-10T09:00',
      recurrence: { frequency: 'weekly', count: 3 },
    });
    expect(series.status).toBe(200);
    const { appointments } = series.body as { appointments: { calendarIDs: number[] }[] };
    expect(appointments).toHaveLength(3);
    for (const a of appointments) expect(a.calendarIDs).toEqual(calendars);
  });

  it('refuses a collective class type', async () => {
    expect(
      await api.post('/appointment-types', {
        name: 'Yoga',
        duration: 60,
        type: 'class',
        classSize: 5,
        collective: true,
      }),
    ).toMatchObject(
      apiError(400, 'invalid_collective', 'Attribute "collective" applies to service types only.'),
    );
    expect(
      await api.post('/appointment-types', { name: 'X', duration: 30, collective: 'yes' }),
    ).toMatchObject(apiError(400, 'invalid_collective', 'Invalid "collective" attribute value.'));
  });

  it('never overlaps on any calendar: a collective booking against 20 single ones, in parallel (MySQL)', async () => {
    const { calendars, meeting, single } = await team();
    for (const hour of ['09', '10', '11', '12', '13']) {
      const datetime = `2030-06-12T${hour}:00`;
      const results = await Promise.all([
        book(meeting, datetime),
        ...Array.from({ length: 20 }, (_, i) =>
          book(single, datetime, { calendarID: calendars[i % 3] }),
        ),
      ]);
      for (const r of results) expect([200, 400]).toContain(r.status);
    }
    // Every calendar's busy time, as MySQL has it: its own appointments and those it is a member of.
    const rows = await db.query<{ calendarId: number; busyFrom: Date; busyUntil: Date }[]>(
      `SELECT a.calendar_id AS calendarId, a.busy_from AS busyFrom, a.busy_until AS busyUntil
         FROM appointments a WHERE a.calendar_id IN (?) AND a.canceled = 0
       UNION ALL
       SELECT m.calendar_id, m.busy_from, m.busy_until FROM appointment_members m
         JOIN appointments a ON a.id = m.appointment_id AND a.canceled = 0
        WHERE m.calendar_id IN (?)`,
      [calendars, calendars],
    );
    expect(rows.length).toBeGreaterThanOrEqual(15);
    for (const calendar of calendars) {
      const spans = rows
        .filter((r) => Number(r.calendarId) === calendar)
        .map((r) => [new Date(r.busyFrom).getTime(), new Date(r.busyUntil).getTime()])
        .sort((a, b) => a[0] - b[0]);
      for (let i = 1; i < spans.length; i++)
        expect(spans[i][0]).toBeGreaterThanOrEqual(spans[i - 1][1]);
    }
  });
});
