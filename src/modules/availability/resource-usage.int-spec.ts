import type { DataSource, EntityManager } from 'typeorm';
import { DAY, HOUR, MINUTE } from '../../common/time/durations';
import { bookingInFlight, insertCalendar, readAfterCommit } from '../../../test/support/busy-rows';
import { openTestDataSource } from '../../../test/support/test-data-source';
import { CalendarLocks } from './calendar-locks.repository';
import { lockResources, readLockedBusy } from './resource-usage.repository';
import type { SlotContext } from './slot-context';

/**
 * The proof of no overbooking of a resource (docs/resources.md): a booking that locks a resource's
 * days reads every use committed by whoever held them before, and bookings of days apart do not
 * wait for each other; by a statement of their own (a move, several calendars) or by the calendar's
 * locking statement (CalendarLocks.lock of one calendar). Two service types share one room of
 * quantity 1, on two calendars.
 */
describe('resource days: lockResources, readLockedBusy, CalendarLocks (MySQL)', () => {
  let dataSource: DataSource;
  let resourceId: number;
  let types: number[];
  let calendars: number[];
  const start = Date.UTC(2031, 5, 2, 9);
  const span = { from: start, until: start + 60 * MINUTE };

  async function insertType(db: EntityManager, name: string): Promise<number> {
    const result: { insertId: number } = await db.query(
      `INSERT INTO appointment_types (account_id, name, description, duration, kind, uses_resources,
         created_at, updated_at) VALUES (1, ?, '', 60, 'service', 1, NOW(3), NOW(3))`,
      [name],
    );
    return Number(result.insertId);
  }

  /** The context of a booking of `typeId` (what lockResources and the read take of it). */
  const ctxOf = (typeId: number) =>
    ({
      type: {
        id: typeId,
        accountId: 1,
        kind: 'service',
        resourceLinks: {
          resources: [{ id: resourceId, name: 'Room', quantity: 1, types }],
          classTypes: null,
        },
      },
    }) as unknown as Pick<SlotContext, 'type'>;
  const locks = new CalendarLocks();
  /** A client's booking of `typeId` on the calendars: locked, their busy time read with the room's. */
  const lockReading = (db: EntityManager, typeId: number, calendarIds: number[], window = span) =>
    locks.lock(db, calendarIds, window, { resources: ctxOf(typeId) }) as Promise<
      Map<number, { from: number; until: number }[]>
    >;

  beforeAll(async () => {
    dataSource = await openTestDataSource();
    const db = dataSource.manager;
    const result: { insertId: number } = await db.query(
      `INSERT INTO resources (account_id, name, quantity, created_at, updated_at)
       VALUES (1, 'Room', 1, NOW(3), NOW(3))`,
    );
    resourceId = Number(result.insertId);
    types = [await insertType(db, 'Massage'), await insertType(db, 'Facial')];
    for (const typeId of types)
      await db.query(
        'INSERT INTO appointment_type_resources (appointment_type_id, resource_id) VALUES (?, ?)',
        [typeId, resourceId],
      );
    calendars = [await insertCalendar(db, 'Therapist A'), await insertCalendar(db, 'Therapist B')];
  });

  afterEach(() =>
    dataSource.query('DELETE FROM appointments WHERE calendar_id IN (?)', [calendars]),
  );

  afterAll(async () => {
    await dataSource.query('DELETE FROM appointment_type_resources WHERE resource_id = ?', [
      resourceId,
    ]);
    await dataSource.query('DELETE FROM resource_days WHERE resource_id = ?', [resourceId]);
    await dataSource.query('DELETE FROM resources WHERE id = ?', [resourceId]);
    await dataSource.query('DELETE FROM appointment_types WHERE id IN (?)', [types]);
    await dataSource.query('DELETE FROM calendars WHERE id IN (?)', [calendars]);
    await dataSource.destroy();
  });

  /** Another booking of the room, left open: on calendar B, its days locked, its row inserted. */
  async function facialInFlight(from: number) {
    const holder = await bookingInFlight(
      dataSource,
      calendars[1],
      from,
      from + 60 * MINUTE,
      types[1],
    );
    await lockResources(holder.manager, ctxOf(types[1]), { from, until: from + 60 * MINUTE });
    return holder;
  }

  const request = { ...span, ignoreAppointmentIds: [] };

  it("waits for the room's day, then reads the use committed meanwhile on another calendar", async () => {
    const holder = await facialInFlight(start);
    const busy = await readAfterCommit(dataSource, holder, (db) =>
      readLockedBusy(db, ctxOf(types[0]), [calendars[0]], request),
    );
    // Calendar A is free itself; the room, full, makes the span busy for it.
    expect(busy.get(calendars[0])).toEqual([span]);
  });

  it('does not wait for a booking of the room on another UTC day', async () => {
    const holder = await facialInFlight(start + DAY);
    const waiter = dataSource.createQueryRunner();
    await waiter.startTransaction();
    try {
      const busy = await readLockedBusy(waiter.manager, ctxOf(types[0]), [calendars[0]], request);
      expect(busy.get(calendars[0])).toEqual([]);
    } finally {
      await waiter.rollbackTransaction();
      await holder.rollbackTransaction();
      await Promise.all([waiter.release(), holder.release()]);
    }
  });

  it('waits for a booking whose span reaches into its day from the day before', async () => {
    // 23:30 to 00:30 UTC: a span over midnight takes both days' rows.
    const holder = dataSource.createQueryRunner();
    await holder.startTransaction();
    const across = { from: Date.UTC(2031, 5, 1, 23, 30), until: Date.UTC(2031, 5, 2, 0, 30) };
    await lockResources(holder.manager, ctxOf(types[1]), across);
    await holder.query(
      `INSERT INTO appointments (account_id, appointment_type_id, calendar_id, starts_at, ends_at,
         busy_from, busy_until, created_at, updated_at) VALUES (1, ?, ?, ?, ?, ?, ?, NOW(3), NOW(3))`,
      [
        types[1],
        calendars[1],
        ...[across.from, across.until, across.from, across.until].map((t) => new Date(t)),
      ],
    );
    const midnight = { from: Date.UTC(2031, 5, 2, 0), until: Date.UTC(2031, 5, 2, 1) };
    const busy = await readAfterCommit(dataSource, holder, (db) =>
      readLockedBusy(db, ctxOf(types[0]), [calendars[0]], {
        ...midnight,
        ignoreAppointmentIds: [],
      }),
    );
    expect(busy.get(calendars[0])).toEqual([across]);
  });

  it("the calendar's locking statement waits for the room's day, then reads the use committed meanwhile", async () => {
    const holder = await facialInFlight(start);
    const busy = await readAfterCommit(dataSource, holder, (db) =>
      lockReading(db, types[0], [calendars[0]]),
    );
    expect(busy.get(calendars[0])).toEqual([span]);
  });

  it("the calendar's locking statement over midnight: both days locked, then the uses read", async () => {
    // 23:30 to 00:30 UTC: two rows, a range the statement locks as it runs (one day and one room
    // are a lookup MariaDB makes while it plans the statement, before it runs any column).
    const across = { from: Date.UTC(2031, 5, 1, 23, 30), until: Date.UTC(2031, 5, 2, 0, 30) };
    await dataSource.query(
      'INSERT IGNORE INTO resource_days (account_id, resource_id, day) VALUES (1, ?, ?), (1, ?, ?)',
      [resourceId, '2031-06-01', resourceId, '2031-06-02'],
    );
    // The other booking, 00:00 to 01:00 on calendar B, holds the second day only.
    const midnight = { from: Date.UTC(2031, 5, 2), until: Date.UTC(2031, 5, 2, 1) };
    const holder = await bookingInFlight(
      dataSource,
      calendars[1],
      midnight.from,
      midnight.until,
      types[1],
    );
    await lockResources(holder.manager, ctxOf(types[1]), midnight);
    const busy = await readAfterCommit(dataSource, holder, (db) =>
      lockReading(db, types[0], [calendars[0]], across),
    );
    expect(busy.get(calendars[0])).toEqual([midnight]);
  });

  it("several calendars: locked, then the room's day, then the use committed meanwhile is read", async () => {
    const holder = await facialInFlight(start);
    const busy = await readAfterCommit(dataSource, holder, (db) =>
      lockReading(db, types[0], [calendars[0], calendars[1]]),
    );
    // B is busy itself (the facial); A only because the room is full.
    expect(busy.get(calendars[0])).toEqual([span]);
    expect(busy.get(calendars[1])).toEqual([span, span]);
  });

  it('a day the room has no row for yet: written and locked, then the uses read', async () => {
    const day = start + 40 * DAY;
    const window = { from: day, until: day + 60 * MINUTE };
    const db = dataSource.createQueryRunner();
    await db.startTransaction();
    try {
      // A use committed on B before (as an admin's booking of a day no one had locked would be).
      await dataSource.query(
        `INSERT INTO appointments (account_id, appointment_type_id, calendar_id, starts_at, ends_at,
           busy_from, busy_until, created_at, updated_at) VALUES (1, ?, ?, ?, ?, ?, ?, NOW(3), NOW(3))`,
        [types[1], calendars[1], ...[day, day + HOUR, day, day + HOUR].map((t) => new Date(t))],
      );
      const busy = await lockReading(db.manager, types[0], [calendars[0]], window);
      expect(busy.get(calendars[0])).toEqual([window]);
      // Its row now exists, locked by this transaction: another booking of that day waits.
      const other = dataSource.createQueryRunner();
      await other.query('SET SESSION innodb_lock_wait_timeout = 1');
      await other.startTransaction();
      await expect(lockReading(other.manager, types[1], [calendars[1]], window)).rejects.toThrow(
        /Lock wait timeout/,
      );
      await other.rollbackTransaction();
      await other.query('SET SESSION innodb_lock_wait_timeout = DEFAULT');
      await other.release();
    } finally {
      await db.rollbackTransaction();
      await db.release();
    }
  });

  it("the calendar's locking statement does not wait for a booking of the room on another day", async () => {
    const holder = await facialInFlight(start + DAY);
    const waiter = dataSource.createQueryRunner();
    await waiter.startTransaction();
    try {
      const busy = await lockReading(waiter.manager, types[0], [calendars[0]]);
      expect(busy.get(calendars[0])).toEqual([]);
    } finally {
      await waiter.rollbackTransaction();
      await holder.rollbackTransaction();
      await Promise.all([waiter.release(), holder.release()]);
    }
  });
});
