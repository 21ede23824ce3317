import type { DataSource } from 'typeorm';
import { MINUTE } from '../../common/time/durations';
import { bookingInFlight, insertCalendar, readAfterCommit } from '../../../test/support/busy-rows';
import { openTestDataSource } from '../../../test/support/test-data-source';
import { lockCalendarReadingBusy } from './calendar-locks';
import { readContextRows } from './slot-context';
import { StaleSlotContextError, stampOf } from './slot-context-cache';

/**
 * The lock statement that checks a cached context (CONTEXT_CHECK_COLUMNS) must still read busy time
 * as committed when its lock is granted, as without the check: its subqueries are correlated with
 * the locked row, so none opens the statement's read view before the lock (an uncorrelated one did,
 * and let parallel bookings of one slot through). And it must tell a changed type from the stamp.
 */
describe('lockCalendarReadingBusy with a cached context (MySQL)', () => {
  let dataSource: DataSource;
  let calendarId: number;
  let typeId: number;
  const start = Date.UTC(2031, 5, 1, 9);
  const window = { from: start, until: start + 30 * MINUTE };

  beforeAll(async () => {
    dataSource = await openTestDataSource();
    calendarId = await insertCalendar(dataSource.manager, 'Cached');
    const type: { insertId: number } = await dataSource.query(
      `INSERT INTO appointment_types (account_id, name, description, duration, kind, created_at, updated_at)
       VALUES (1, 'Cached type', '', 30, 'service', NOW(3), NOW(3))`,
    );
    typeId = Number(type.insertId);
    await dataSource.query(
      'INSERT INTO appointment_type_calendars (appointment_type_id, calendar_id) VALUES (?, ?)',
      [typeId, calendarId],
    );
  });

  afterEach(() => dataSource.query('DELETE FROM appointments WHERE calendar_id = ?', [calendarId]));

  afterAll(async () => {
    await dataSource.query('DELETE FROM appointments WHERE calendar_id = ?', [calendarId]);
    await dataSource.query('DELETE FROM appointment_type_calendars WHERE calendar_id = ?', [
      calendarId,
    ]);
    await dataSource.query('DELETE FROM appointment_types WHERE id = ?', [typeId]);
    await dataSource.query('DELETE FROM calendars WHERE id = ?', [calendarId]);
    await dataSource.destroy();
  });

  async function stamp(): Promise<string> {
    const request = { appointmentTypeID: typeId, calendarID: calendarId };
    const [row] = await readContextRows(dataSource.manager, request);
    return stampOf(row);
  }

  it('waits for the lock, then reads the booking committed meanwhile', async () => {
    const check = { typeId, stamp: await stamp() };
    const holder = await bookingInFlight(
      dataSource,
      calendarId,
      start,
      start + 30 * MINUTE,
      typeId,
    );
    const read = await readAfterCommit(dataSource, holder, (db) =>
      lockCalendarReadingBusy(db, calendarId, window, [], undefined, check),
    );
    expect(read).toEqual([{ from: start, until: start + 30 * MINUTE }]);
  });

  it('refuses a stamp the type no longer matches', async () => {
    const check = { typeId, stamp: await stamp() };
    await dataSource.query('UPDATE appointment_types SET duration = 45 WHERE id = ?', [typeId]);
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      await expect(
        lockCalendarReadingBusy(runner.manager, calendarId, window, [], undefined, check),
      ).rejects.toBeInstanceOf(StaleSlotContextError);
      const fresh = { typeId, stamp: await stamp() };
      expect(
        await lockCalendarReadingBusy(runner.manager, calendarId, window, [], undefined, fresh),
      ).toEqual([]);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
