import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import { type BusyColumns, busySpansOf } from './busy-time';
import { BUSY_COLUMNS, busyParameters, readBusyTime } from './busy-time.repository';
import type { Span } from './working-time';

/**
 * The one way a booking or a move locks calendars: whoever holds a calendar's lock is the only one
 * checking and writing its time. Calendar rows are locked in ascending id order, so that two
 * transactions never wait on each other in a cycle.
 *
 * Transactions run at READ COMMITTED (every connection's level, see useReadCommitted): busy time
 * read under the locks sees every booking committed before the locks were granted.
 */
@Injectable()
export class CalendarLocks {
  /**
   * Locks the calendars; with `busyDuring`, also reads their busy time then, under the locks. One
   * calendar is locked and read in one statement (every client booking that names its calendar, or
   * whose type has one); several are locked, then read.
   */
  async lock(
    tx: EntityManager,
    calendarIds: number[],
    busyDuring?: Span,
    /** The hold of the client who books with its token: not busy for them. */
    ignoreHoldId?: number,
  ): Promise<Map<number, Span[]> | undefined> {
    if (busyDuring && calendarIds.length === 1) {
      const [id] = calendarIds;
      const busy = await lockCalendarReadingBusy(tx, id, busyDuring, [], ignoreHoldId);
      return new Map([[id, busy ?? []]]);
    }
    const ids = [...new Set(calendarIds)].sort((a, b) => a - b);
    if (ids.length > 0)
      await queryPrepared(tx, 'SELECT id FROM calendars WHERE id IN (?) ORDER BY id FOR UPDATE', [
        ids,
      ]);
    if (!busyDuring) return undefined;
    return readBusyTime(tx, calendarIds, busyDuring, [], ignoreHoldId);
  }
}

/**
 * Locks one calendar's row FOR UPDATE and reads its busy time during `window` in the same statement:
 * one round trip where locking then `readBusyTime` take two. Undefined when there is no such row.
 *
 * It sees every booking committed before the lock was granted, as a statement after the lock would:
 * the busy subqueries are correlated with the locked row, so they run once InnoDB has granted its
 * lock; and at READ COMMITTED a statement's read view is opened by its first non-locking read, one
 * of those subqueries. One calendar only: with several, the view opened for the first calendar
 * would serve the next ones, whose locks may be granted later. `busy-time.int-spec.ts` commits a
 * booking while this statement waits for its lock, and checks that the booking is read.
 */
export async function lockCalendarReadingBusy(
  tx: EntityManager,
  calendarId: number,
  window: Span,
  ignoreAppointmentIds: number[] = [],
  ignoreHoldId?: number,
): Promise<Span[] | undefined> {
  const [row] = await queryPrepared<BusyColumns[]>(tx, LOCK_STATEMENT, [
    ...busyParameters({ ...window, ignoreAppointmentIds, ignoreHoldId }),
    calendarId,
  ]);
  return row && busySpansOf(row);
}

const LOCK_STATEMENT = `SELECT c.id ${BUSY_COLUMNS} FROM calendars c WHERE c.id = ? FOR UPDATE`;
