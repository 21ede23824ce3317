import type { DataSource, EntityManager } from 'typeorm';
import { DAY, MINUTE } from '../../common/time/durations';
import { bookingInFlight, insertCalendar, readAfterCommit } from '../../../test/support/busy-rows';
import { openTestDataSource } from '../../../test/support/test-data-source';
import { MAX_BUSY_SPAN_MINUTES } from './busy-time';
import { readBusyTime } from './busy-time.repository';
import { BusyKind, markBusyKind } from '../catalog';
import { lockCalendarReadingBusy } from './calendar-locks.repository';
import { configureLocks } from '../../common/database/row-locks';

/**
 * The read behind every availability answer costs what the range holds: on a calendar with two
 * years of appointments, the appointments of one day come from a bounded range of
 * `idx_appointments_calendar_busy`, not from a scan of the calendar's history.
 */
describe('readBusyTime (MySQL)', () => {
  let dataSource: DataSource;
  let calendarId: number;
  const base = Date.UTC(2031, 0, 1);

  beforeAll(async () => {
    dataSource = await openTestDataSource();
    calendarId = await insertCalendar(dataSource.manager, 'History');
    // Two years of history: one 30-minute appointment every 2 hours.
    const rows: unknown[][] = [];
    for (let at = base - 365 * DAY; at < base + 365 * DAY; at += 120 * MINUTE)
      rows.push([
        1,
        1,
        calendarId,
        new Date(at),
        new Date(at + 30 * MINUTE),
        new Date(at),
        new Date(at + 30 * MINUTE),
        new Date(),
        new Date(),
      ]);
    for (let i = 0; i < rows.length; i += 2000)
      await dataSource.query(
        'INSERT INTO appointments (account_id, appointment_type_id, calendar_id, starts_at, ends_at, busy_from, busy_until, created_at, updated_at) VALUES ?',
        [rows.slice(i, i + 2000)],
      );
    await dataSource.query('ANALYZE TABLE appointments');
  });

  afterAll(async () => {
    await dataSource.query('DELETE FROM appointments WHERE calendar_id = ?', [calendarId]);
    await dataSource.query('DELETE FROM calendars WHERE id = ?', [calendarId]);
    await dataSource.destroy();
  });

  it("reads a day's busy time, and appointments that started before it and last into it", async () => {
    const busy = await readBusyTime(dataSource.manager, [calendarId], {
      from: base + 15 * MINUTE,
      until: base + DAY,
    });
    const spans = busy.get(calendarId)!;
    expect(spans).toHaveLength(12);
    expect(spans[0]).toEqual({ from: base, until: base + 30 * MINUTE });
  });

  it('reads the appointments through a range of the calendar index bounded on both sides', async () => {
    const [plan] = await dataSource.query<{ key: string; type: string; rows: number | string }[]>(
      `EXPLAIN SELECT a.busy_from FROM appointments a
        WHERE a.calendar_id IN (?) AND a.busy_from >= ? AND a.busy_from < ? AND a.busy_until > ?
          AND a.canceled = 0`,
      [
        [calendarId],
        new Date(base - MAX_BUSY_SPAN_MINUTES * MINUTE),
        new Date(base + DAY),
        new Date(base),
      ],
    );
    expect(plan.key).toBe('idx_appointments_calendar_busy');
    expect(plan.type).toBe('range');
    // About 4 days of 12 appointments, of the calendar's 8,760.
    expect(Number(plan.rows)).toBeLessThan(200);
  });
});

/**
 * `lockCalendarReadingBusy` must read what a booking committed while it waited for the calendar's
 * lock, as a separate statement after the lock would: else two bookings of one slot could both pass.
 */
describe('lockCalendarReadingBusy (MySQL)', () => {
  let dataSource: DataSource;
  let calendarId: number;
  const start = Date.UTC(2031, 5, 1, 9);
  const window = { from: start, until: start + 30 * MINUTE };

  beforeAll(async () => {
    dataSource = await openTestDataSource();
    calendarId = await insertCalendar(dataSource.manager, 'Contended');
  });

  afterEach(async () => {
    await dataSource.query('DELETE FROM appointments WHERE calendar_id = ?', [calendarId]);
    await dataSource.query('DELETE FROM blocks WHERE calendar_id = ?', [calendarId]);
    await dataSource.query('UPDATE calendars SET busy_kinds = 0 WHERE id = ?', [calendarId]);
  });

  /** A block over the window, written as availability's block writer does: the bit, then the row. */
  const writeBlock = async (db: EntityManager, marked = true) => {
    if (marked) await markBusyKind(db, BusyKind.blocks, calendarId, 1);
    await db.query(
      `INSERT INTO blocks (account_id, calendar_id, starts_at, ends_at, notes, created_at)
       VALUES (1, ?, ?, ?, '', NOW(3))`,
      [calendarId, new Date(window.from), new Date(window.until)],
    );
  };

  afterAll(async () => {
    await dataSource.query('DELETE FROM calendars WHERE id = ?', [calendarId]);
    await dataSource.destroy();
  });

  /** Another booking's transaction: holds the calendar's lock with an appointment inserted. */
  const bookingOf = (from: number) =>
    bookingInFlight(dataSource, calendarId, from, from + 30 * MINUTE);

  it('waits for the lock, then reads the booking committed meanwhile', async () => {
    const holder = await bookingOf(start);
    const read = await readAfterCommit(dataSource, holder, (db) =>
      lockCalendarReadingBusy(db, calendarId, window),
    );
    expect(read).toEqual([{ from: start, until: start + 30 * MINUTE }]);
  });

  it('where locks are writes (DB_HOSTS): writes the row, then reads the booking committed meanwhile', async () => {
    const version = async (db: EntityManager) =>
      Number(
        (
          await db.query<{ v: string }[]>('SELECT lock_version AS v FROM calendars WHERE id = ?', [
            calendarId,
          ])
        )[0].v,
      );
    const before = await version(dataSource.manager);
    configureLocks({ written: true });
    try {
      const holder = await bookingOf(start);
      const read = await readAfterCommit(dataSource, holder, async (db) => ({
        busy: await lockCalendarReadingBusy(db, calendarId, window),
        version: await version(db),
      }));
      expect(read).toEqual({
        busy: [{ from: start, until: start + 30 * MINUTE }],
        version: before + 1,
      });
    } finally {
      configureLocks({ written: false });
    }
    // Where locks are reads (one server), the same lock writes nothing.
    const unwritten = await dataSource.transaction(async (db) => {
      await lockCalendarReadingBusy(db, calendarId, window);
      return version(db);
    });
    expect(unwritten).toBe(before);
  });

  it('leaves out appointments outside the window and those it is told to ignore', async () => {
    const holder = await bookingOf(start + 30 * MINUTE);
    await holder.commitTransaction();
    await holder.release();
    const [{ id }] = await dataSource.query<{ id: number }[]>(
      'SELECT id FROM appointments WHERE calendar_id = ?',
      [calendarId],
    );
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      expect(await lockCalendarReadingBusy(runner.manager, calendarId, window)).toEqual([]);
      const later = { from: start + 30 * MINUTE, until: start + 60 * MINUTE };
      expect(await lockCalendarReadingBusy(runner.manager, calendarId, later)).toHaveLength(1);
      expect(await lockCalendarReadingBusy(runner.manager, calendarId, later, [id])).toEqual([]);
      expect(await lockCalendarReadingBusy(runner.manager, 900_999, later)).toBeUndefined();
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });

  it('reads a kind of busy time the context did not know of, when the locked row has its bit', async () => {
    await writeBlock(dataSource.manager);
    const read = await dataSource.transaction((db) =>
      lockCalendarReadingBusy(db, calendarId, window, [], undefined, 0),
    );
    expect(read).toEqual([window]);
  });

  it('reads a block committed with its bit while it waited for the lock, told of no kind', async () => {
    const holder = dataSource.createQueryRunner();
    await holder.startTransaction();
    await writeBlock(holder.manager);
    const read = await readAfterCommit(dataSource, holder, (db) =>
      lockCalendarReadingBusy(db, calendarId, window, [], undefined, 0),
    );
    expect(read).toEqual([window]);
  });

  it('leaves out the kinds neither it nor the row has a bit of', async () => {
    await writeBlock(dataSource.manager, false);
    const read = await dataSource.transaction((db) =>
      lockCalendarReadingBusy(db, calendarId, window, [], undefined, 0),
    );
    expect(read).toEqual([]);
    const all = await dataSource.transaction((db) =>
      lockCalendarReadingBusy(db, calendarId, window),
    );
    expect(all).toEqual([window]);
  });
});
