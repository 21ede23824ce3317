import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import { DataSource } from 'typeorm';
import { type ApiClient, type ApiResponse, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';
import { seededRandom } from '../support/seeded-random';

/**
 * Concurrency claims of POST /appointments, each checked in the database after a storm of parallel
 * requests (100 bookings of one slot: booking.e2e-spec.ts).
 */

/** Monday 2030-06-03 in New York (-0400); types look 10 years ahead so that it is bookable. */
const MONDAY = '2030-06-03';
const HORIZON = { maxDaysInAdvance: 3650 };
const HOURS = { monday: [{ start: '09:00', end: '17:00' }] };

/** `HH:MM` of the quarter-hour `quarter` counted from midnight. */
const quarterTime = (quarter: number) =>
  `${String(Math.floor(quarter / 4)).padStart(2, '0')}:${String((quarter % 4) * 15).padStart(2, '0')}`;

describe('POST /appointments under concurrency (e2e, invariants checked in MySQL)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let api: ApiClient;

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
    api = apiClient(app, await createAccount(app, { timezone: 'America/New_York' }));
  });

  afterAll(() => app.close());

  const client = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' };

  /** Pairs of live appointments of the calendars whose busy spans overlap (there must be none). */
  async function overlaps(calendarIds: number[]): Promise<unknown[]> {
    return db.query(
      `SELECT a.id AS a, b.id AS b, a.calendar_id AS calendarId
         FROM appointments a
         JOIN appointments b
           ON b.calendar_id = a.calendar_id AND b.id > a.id
          AND a.busy_from < b.busy_until AND b.busy_from < a.busy_until
        WHERE a.calendar_id IN (?) AND a.canceled = 0 AND b.canceled = 0`,
      [calendarIds],
    );
  }

  async function liveCount(where: string, parameters: unknown[]): Promise<number> {
    const [row] = await db.query<{ n: string }[]>(
      `SELECT COUNT(*) AS n FROM appointments WHERE canceled = 0 AND ${where}`,
      parameters,
    );
    return Number(row.n);
  }

  /** Outbox rows of the type's appointments: a booking writes one (scheduled), a refusal none. */
  async function eventCount(type: number): Promise<number> {
    const [row] = await db.query<{ n: string }[]>(
      "SELECT COUNT(*) AS n FROM outbox WHERE JSON_VALUE(payload, '$.appointmentTypeId') = ?",
      [type],
    );
    return Number(row.n);
  }

  /** The answers split: the bookings, and the refusals' `error` codes with their count. */
  function tally(answers: ApiResponse[]): {
    booked: ApiResponse[];
    refused: Record<string, number>;
  } {
    const refused: Record<string, number> = {};
    for (const a of answers.filter((r) => r.status !== 200)) {
      const key = `${a.status} ${(a.body as { error: string }).error}`;
      refused[key] = (refused[key] ?? 0) + 1;
    }
    return { booked: answers.filter((a) => a.status === 200), refused };
  }

  it.each([
    ['one calendar named in each request', 1, true],
    ['three calendars, picked by the service', 3, false],
  ])(
    '60 random overlapping bookings (%s): no two live appointments of a calendar overlap',
    async (_, calendarCount, named) => {
      const calendars: number[] = [];
      for (let i = 0; i < calendarCount; i++)
        calendars.push(await createCalendar(api, { name: `Chair ${i}`, hours: HOURS }));
      const type = await createAppointmentType(api, {
        duration: 45,
        slotInterval: 15,
        paddingBefore: 10,
        paddingAfter: 15,
        calendarIDs: calendars,
        ...HORIZON,
      });
      const next = seededRandom(20300603 + calendarCount);
      // Quarter-hour starts from 09:00 to 16:45: some are too early or too late for the padding.
      const bodies = Array.from({ length: 60 }, (_, i) => {
        const start = quarterTime(36 + Math.floor(next() * 32));
        return {
          ...client,
          email: `client${i}@example.com`,
          appointmentTypeID: type,
          ...(named ? { calendarID: calendars[0] } : {}),
          datetime: `${MONDAY}T${start}`,
        };
      });
      const answers = await Promise.all(bodies.map((b) => api.post('/appointments', b)));

      const { booked, refused } = tally(answers);
      const refusal = named ? '400 not_available' : '400 no_available_calendar';
      expect(refused).toEqual({ [refusal]: answers.length - booked.length });
      // Without overlap, a calendar fits at most 6 of these (75 busy minutes in 8 hours).
      expect(booked.length).toBeGreaterThan(0);
      expect(booked.length).toBeLessThanOrEqual(6 * calendarCount);
      expect(await overlaps(calendars)).toEqual([]);
      expect(await liveCount('calendar_id IN (?)', [calendars])).toBe(booked.length);
      expect(await eventCount(type)).toBe(booked.length);
      // Each booking is where its answer says.
      for (const a of booked) {
        const { id, datetime, calendarID } = a.body as {
          id: number;
          datetime: string;
          calendarID: number;
        };
        const [row] = await db.query<{ startsAt: Date; calendarId: number }[]>(
          'SELECT starts_at AS startsAt, calendar_id AS calendarId FROM appointments WHERE id = ?',
          [id],
        );
        expect({
          start: DateTime.fromJSDate(new Date(row.startsAt)).toMillis(),
          calendar: Number(row.calendarId),
        }).toEqual({ start: DateTime.fromISO(datetime).toMillis(), calendar: calendarID });
      }
    },
  );

  it('a class of N seats and 3N parallel bookings: exactly N are booked, all in that session', async () => {
    const seats = 8;
    const calendar = await createCalendar(api, { name: 'Studio', hours: HOURS });
    const yoga = await createAppointmentType(api, {
      name: 'Yoga',
      duration: 60,
      type: 'class',
      classSize: seats,
      calendarIDs: [calendar],
      ...HORIZON,
    });
    const session = await api.post('/classes', {
      appointmentTypeID: yoga,
      calendarID: calendar,
      datetime: `${MONDAY}T10:30`,
    });
    expect(session.status).toBe(200);
    const classId = (session.body as { id: number }).id;

    const answers = await Promise.all(
      Array.from({ length: 3 * seats }, (_, i) =>
        api.post('/appointments', {
          ...client,
          email: `yogi${i}@example.com`,
          appointmentTypeID: yoga,
          calendarID: calendar,
          datetime: `${MONDAY}T10:30`,
        }),
      ),
    );
    const { booked, refused } = tally(answers);
    expect(booked).toHaveLength(seats);
    expect(refused).toEqual({ '400 not_available': 2 * seats });
    for (const a of answers.filter((r) => r.status !== 200))
      expect(a).toMatchObject(
        apiError(400, 'not_available', `The time "${MONDAY}T10:30" is not an available time slot.`),
      );
    for (const a of booked)
      expect(a.body).toMatchObject({
        classID: classId,
        appointmentTypeID: yoga,
        calendarID: calendar,
        datetime: `${MONDAY}T10:30:00-0400`,
      });
    expect(await liveCount('class_id = ?', [classId])).toBe(seats);
    expect(await liveCount('appointment_type_id = ?', [yoga])).toBe(seats);
    expect(await eventCount(yoga)).toBe(seats);
  });

  it('a package with 1 use and 20 parallel bookings of different slots: exactly one uses it', async () => {
    // Four calendars, so that the bookings do not queue on one calendar's lock: the package's does it.
    const calendars: number[] = [];
    for (let i = 0; i < 4; i++)
      calendars.push(await createCalendar(api, { name: `Room ${i}`, hours: HOURS }));
    const type = await createAppointmentType(api, {
      duration: 60,
      price: '50.00',
      calendarIDs: calendars,
      ...HORIZON,
    });
    const product = await api.post('/products', {
      name: 'One visit',
      price: 45,
      type: 'appointments',
      appointmentTypeCounts: { [type]: 1 },
    });
    const issued = await api.post('/certificates', { productID: product.body.id });
    const { id: certificateId, certificate: code } = issued.body as {
      id: number;
      certificate: string;
    };

    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.post('/appointments', {
          ...client,
          appointmentTypeID: type,
          calendarID: calendars[i % 4],
          datetime: `${MONDAY}T${quarterTime(36 + 4 * Math.floor(i / 4))}`,
          certificate: code,
        }),
      ),
    );
    const { booked, refused } = tally(answers);
    expect(booked).toHaveLength(1);
    expect(booked[0].body).toMatchObject({ certificate: code, priceSold: '0.00', price: '50.00' });
    expect(refused).toEqual({ '400 certificate_uses': 19 });
    for (const a of answers.filter((r) => r.status !== 200))
      expect(a).toMatchObject(
        apiError(
          400,
          'certificate_uses',
          `The certificate "${code}" has no remaining uses for appointment type "${type}".`,
        ),
      );
    expect(await liveCount('calendar_id IN (?)', [calendars])).toBe(1);
    expect(await liveCount('certificate_id = ?', [certificateId])).toBe(1);
    expect(await eventCount(type)).toBe(1);
    expect((await api.get(`/certificates/${certificateId}`)).body).toMatchObject({
      remainingCounts: { [type]: 0 },
    });
  });
});
