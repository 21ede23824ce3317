import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import { ALL_BUSY_KINDS } from '../catalog';
import {
  BUSY_COLUMNS,
  type BusyColumns,
  busyColumnsOf,
  busyKindParameters,
  busyParameters,
  busySpansOf,
  readBusyTime,
} from './busy-time';
import {
  CONTEXT_CHECK_COLUMNS,
  StaleSlotContextError,
  assertContextCurrent,
  contextCheckParameters,
} from './slot-context-cache';
import type { Span } from './working-time';

/** A cached slot context to check in the lock statement (see slot-context-cache.ts). */
export interface StampCheck {
  typeId: number;
  stamp: string;
  /** The calendar's BusyKind bits the stamp was made with: the kinds of busy time read (all if absent). */
  busyKinds?: number;
}

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
    /** A cached context's stamp, checked in the one-calendar lock statement. */
    check?: StampCheck,
  ): Promise<Map<number, Span[]> | undefined> {
    if (busyDuring && calendarIds.length === 1) {
      const [id] = calendarIds;
      const busy = await lockCalendarReadingBusy(tx, id, busyDuring, [], ignoreHoldId, check);
      return new Map([[id, busy ?? []]]);
    }
    const ids = [...new Set(calendarIds)].sort((a, b) => a - b);
    if (ids.length > 0)
      await queryPrepared(tx, 'SELECT id FROM calendars WHERE id IN (?) ORDER BY id FOR UPDATE', [
        ids,
      ]);
    // Only the one-calendar statement checks a stamp: a stamped context must not come here.
    if (check) throw new Error("A cached slot context is checked by one calendar's lock");
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
  check?: StampCheck,
): Promise<Span[] | undefined> {
  const parameters = busyParameters({ ...window, ignoreAppointmentIds, ignoreHoldId });
  const kinds = check?.busyKinds ?? ALL_BUSY_KINDS;
  const [row] = await queryPrepared<(BusyColumns & Record<string, unknown>)[]>(
    tx,
    check ? checkedLockStatement(kinds) : LOCK_STATEMENT,
    [
      ...(check ? busyKindParameters(kinds, parameters) : parameters),
      ...(check ? contextCheckParameters(check.typeId) : []),
      calendarId,
    ],
  );
  if (check) {
    if (!row) throw new StaleSlotContextError();
    assertContextCurrent(row, check.stamp);
  }
  return row && busySpansOf(row);
}

const LOCK_STATEMENT = `SELECT c.id ${BUSY_COLUMNS} FROM calendars c WHERE c.id = ? FOR UPDATE`;

/** The checked lock statement of each combination of BusyKind bits, built once. */
const checkedLockStatements = new Map<number, string>();

/**
 * The lock statement of a booking with a stamped context reads the appointments and only the kinds
 * of busy time whose bits the context has: each subquery in the text costs the database ~40 µs,
 * run or not (gated by IF or CASE, or over an empty table), so the text is chosen before it is sent,
 * one prepared statement per combination (at most 16). Exact: the bits are part of the stamp, which
 * the statement checks against the calendar row it has locked (CONTEXT_CHECK_COLUMNS); a writer of
 * a kind sets its bit in its transaction holding that row's lock (catalog's markBusyKind), so when
 * the bits read under the lock match the stamp's, the calendar has no committed row of any kind left
 * out; when a bit was set since, the stamp differs and the booking starts over on a fresh read.
 */
function checkedLockStatement(busyKinds: number): string {
  let text = checkedLockStatements.get(busyKinds);
  if (text === undefined) {
    text = `SELECT c.id ${busyColumnsOf(busyKinds)} ${CONTEXT_CHECK_COLUMNS}
       FROM calendars c WHERE c.id = ? FOR UPDATE`;
    checkedLockStatements.set(busyKinds, text);
  }
  return text;
}
