import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import { lockRows, locksWrite } from '../../common/database/row-locks';
import { type BusyColumns, busySpansOf } from './busy-time';
import {
  busyColumnsOf,
  busyKindParameters,
  busyParameters,
  readBusyTime,
} from './busy-time.repository';
import { ALL_BUSY_KINDS } from '../catalog';
import {
  type LockedResources,
  type LockedUsesRow,
  type ResourceCheck,
  lockedResourcesOf,
  readLockedBusy,
  settleResourceBusy,
} from './resource-usage.repository';
import type { Span } from './working-time';

/**
 * The one way a booking or a move locks calendars: whoever holds a calendar's lock is the only one
 * checking and writing its time. The lock is a write of the calendar's row (lockRows), so that it
 * holds on every node of a Galera cluster too. Rows are locked in ascending id order, so that two
 * transactions never wait on each other in a cycle. At READ COMMITTED (every connection's level,
 * see useReadCommitted), busy time read under the locks sees every booking committed before they
 * were granted.
 */
/** What CalendarLocks.lock reads besides taking the locks. */
export interface LockReads {
  /** The hold of the client who books with its token: not busy for them. */
  ignoreHoldId?: number;
  /** The calendars' BusyKind bits as read before the lock (the slot context's); all if absent. */
  busyKinds?: number;
  /**
   * The check whose type's resources are locked too (their days, after the calendars) and whose
   * full time is added to every calendar's busy time (docs/resources.md); its context completed.
   */
  resources?: ResourceCheck;
}

@Injectable()
export class CalendarLocks {
  /**
   * Locks the calendars; with `busyDuring`, also reads their busy time under the locks (and the
   * resources', see LockReads): one calendar in one statement, reading the kinds `busyKinds` says
   * it may have (lockCalendarReadingBusy); several are locked, then read.
   */
  async lock(
    tx: EntityManager,
    calendarIds: number[],
    busyDuring?: Span,
    { ignoreHoldId, busyKinds, resources }: LockReads = {},
  ): Promise<Map<number, Span[]> | undefined> {
    const request = busyDuring && { ...busyDuring, ignoreAppointmentIds: [], ignoreHoldId };
    if (request && calendarIds.length === 1) {
      const [id] = calendarIds;
      const locked = resources && lockedResourcesOf(resources, request);
      const busy = await lockCalendarReadingBusy(
        tx,
        id,
        request,
        [],
        ignoreHoldId,
        busyKinds,
        locked,
      );
      const byCalendar = new Map([[id, busy ?? []]]);
      if (!locked) return byCalendar;
      return settleResourceBusy(tx, resources, locked, byCalendar, request);
    }
    await lockRows(tx, 'calendars', calendarIds);
    if (!request) return undefined;
    if (!resources) return readBusyTime(tx, calendarIds, request, [], ignoreHoldId);
    return readLockedBusy(tx, resources, calendarIds, request);
  }
}

/**
 * Locks one calendar, then reads its busy time during `window` in one statement. Undefined when
 * there is no such row. Where locks are reads (one server, configureLocks), the statement is the
 * lock too (`FOR UPDATE`: its busy subqueries are correlated with the
 * locked row, so they run once the lock is granted, and at READ COMMITTED the statement's read view
 * opens at its first non-locking read, one of them): one round trip. Where locks are writes,
 * lockRows first (and the resource days, LockedResources.lock), then the statement, whose read
 * view opens after the locks were granted. Either way it reads what was
 * committed before the lock: `busy-time.int-spec.ts` commits a booking while the lock waits, and
 * checks that the booking is read.
 *
 * The kinds of busy time read are `assumedKinds` (BusyKind bits; appointments always): each
 * subquery in the text costs the database ~40 µs, over an empty table or not, and most calendars
 * never have a block, a class, a hold or a synced calendar. Exact, with no retry: the statement
 * also reads the row's `busy_kinds` under its lock. A writer of a kind sets its bit in its own
 * transaction holding this row's lock (catalog's markBusyKind, always written), so every row of a
 * kind committed before our lock was granted has its bit in what the read returns, and no writer
 * of a kind can commit while we hold the lock. When that value has a bit `assumedKinds` lacked (a
 * kind appeared since the context was read), the busy time is read again, whole, by a second
 * statement under the lock already held; otherwise no kind left out can have a row.
 *
 * With `resources`, the type's resource days are locked after the calendar (in the one global
 * order; on one server by the statement's first column) and the same statement reads the
 * resources' uses (its last columns).
 */
export async function lockCalendarReadingBusy(
  tx: EntityManager,
  calendarId: number,
  window: Span,
  ignoreAppointmentIds: number[] = [],
  ignoreHoldId?: number,
  assumedKinds = ALL_BUSY_KINDS,
  /** Its type's resources, locked and read by the same statement (their `row` set). */
  resources?: LockedResources,
): Promise<Span[] | undefined> {
  const lockedByRead = !locksWrite();
  if (!lockedByRead) {
    if ((await lockRows(tx, 'calendars', [calendarId])) === 0) return undefined;
    await resources?.lock(tx);
  }
  const request = { ...window, ignoreAppointmentIds, ignoreHoldId };
  const busyValues = busyKindParameters(assumedKinds, busyParameters(request));
  const [row] = await queryPrepared<
    (BusyColumns & { busyKinds: number } & Partial<LockedUsesRow>)[]
  >(
    tx,
    readStatement(assumedKinds, lockedByRead, resources),
    resources
      ? [
          ...(lockedByRead ? resources.lockParameters : []),
          ...busyValues,
          ...resources.useParameters,
          calendarId,
        ]
      : [...busyValues, calendarId],
  );
  if (resources) resources.row = row as LockedUsesRow | undefined;
  if (!row) return undefined;
  if ((Number(row.busyKinds) & ~assumedKinds) === 0) return busySpansOf(row);
  const busy = await readBusyTime(tx, [calendarId], window, ignoreAppointmentIds, ignoreHoldId);
  return busy.get(calendarId) ?? [];
}

const readStatements = new Map<string, string>();

/**
 * The read of each combination of BusyKind bits (at most 64), lock and resources' uses. Where it is
 * the lock (`forUpdate`), a type's resources add their locking column first (LockedResources).
 */
function readStatement(kinds: number, forUpdate: boolean, resources?: LockedResources): string {
  const key = `${kinds} ${forUpdate} ${resources?.shape ?? ''}`;
  let text = readStatements.get(key);
  if (text === undefined) {
    const head =
      forUpdate && resources
        ? `SELECT c.id, c.busy_kinds AS busyKinds, ${resources.lockColumn} ${busyColumnsOf(kinds)}`
        : `SELECT c.id, c.busy_kinds AS busyKinds ${busyColumnsOf(kinds)}`;
    const uses = resources ? `,\n  ${resources.useColumns}` : '';
    text = `${head}${uses} FROM calendars c WHERE c.id = ?${forUpdate ? ' FOR UPDATE' : ''}`;
    readStatements.set(key, text);
  }
  return text;
}
