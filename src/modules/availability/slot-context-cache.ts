import type { EntityManager } from 'typeorm';
import type { Account } from '../accounts';
import { json } from './busy-time';
import {
  CALENDAR_COLUMNS,
  type ContextRow,
  type SlotContext,
  type SlotRequest,
  isOffered,
  readContextRows,
  slotContextOf,
  toSlotCalendar,
  toSlotType,
} from './slot-context';
import { BoundedMap } from '../../common/cache/bounded-map';

/*
 * A client's booking of a named calendar reads its type, calendar and their link before its
 * transaction, then locks the calendar. Here that read is kept per process, so that the booking
 * sends one statement less: the context is trusted for the checks before the lock only, and the
 * lock statement reads the same columns again (CONTEXT_CHECK_COLUMNS), as committed when the lock is
 * granted; when they differ from what the context was read as, the booking starts over on a fresh
 * read (StaleSlotContextError). So a booking is decided on what is committed, exactly as with a read
 * of its own, which was not locked either; nothing expires, nothing is invalidated across pods.
 */

/** Entries kept, the oldest dropped first: a few hundred bytes each. */
const MAX_ENTRIES = 10_000;

/** The context a booking was checked with is not what the lock statement read: start over. */
export class StaleSlotContextError extends Error {
  constructor() {
    super('The slot context changed since it was cached');
  }
}

interface Entry {
  row: ContextRow;
  stamp: string;
  busyKinds: number;
}
const entries = new BoundedMap<string, Entry>(MAX_ENTRIES);

/**
 * The columns of the type, calendar and link that the context is made of, as one stamp: any change
 * of what the booking reads of them changes it (a change that does not, e.g. JSON written with other
 * spacing, may also change it: the booking only reads afresh).
 */
export function stampOf(row: ContextRow): string {
  return JSON.stringify([
    toSlotType(row),
    row.deletedAt !== null,
    toSlotCalendar(row),
    Number(row.calendarAccountId),
    row.calendarDeletedAt !== null,
    Number(row.offered),
    // The kinds of busy time the calendar has: a booking with this stamp reads only those.
    Number(row.calendarBusyKinds),
  ]);
}

/**
 * A named calendar's context for a client's booking (no addons, no hold): from the cache when it
 * holds one, stamped; else read, and kept when the lock statement can check it (a service offered
 * on the calendar). Throws as resolveSlotContext does; a caller that got an error from checks made
 * with a stamped context reads afresh before answering it (the stamp may be stale).
 */
export async function cachedSlotContext(
  manager: EntityManager,
  account: Account,
  request: SlotRequest,
): Promise<SlotContext> {
  const key = `${account.id}:${request.appointmentTypeID}:${request.calendarID}`;
  const hit = entries.get(key);
  if (hit)
    return {
      ...(await slotContextOf(manager, account, request, [hit.row])),
      stamp: hit.stamp,
      busyKinds: hit.busyKinds,
    };
  const rows = await readContextRows(manager, request);
  const ctx = await slotContextOf(manager, account, request, rows);
  if (rows.length !== 1 || !isOffered(ctx) || ctx.type.kind !== 'service') return ctx;
  const entry = {
    row: rows[0],
    stamp: stampOf(rows[0]),
    busyKinds: Number(rows[0].calendarBusyKinds),
  };
  entries.set(key, entry);
  return { ...ctx, stamp: entry.stamp, busyKinds: entry.busyKinds };
}

/** Drops what the cache holds for the context (it was found stale). */
export function forgetSlotContext(account: Account, request: SlotRequest): void {
  entries.delete(`${account.id}:${request.appointmentTypeID}:${request.calendarID}`);
}

/**
 * What the calendar's lock statement (`calendars c`) adds to check a stamped context: the calendar's
 * columns from the locked row; the type's and whether it has forms (as the context query reads
 * them); whether the type is linked to the calendar. Subqueries, hence non-locking reads: the type's
 * row is not locked (bookings of one type on other calendars do not wait). Each is correlated with
 * the locked row (the type's by its account, which a stamp that matches has the calendar's): an
 * uncorrelated one is run while the statement is optimized, before the lock is granted, and its
 * read would open the statement's read view then, so that the busy time read after the lock
 * missed what was committed meanwhile (double bookings; see lockCalendarReadingBusy). Parameters:
 * contextCheckParameters'.
 */
export const CONTEXT_CHECK_COLUMNS = `, ${CALENDAR_COLUMNS},
  (SELECT JSON_OBJECT('id', t.id, 'accountId', t.account_id, 'name', t.name,
      'category', t.category, 'active', t.active, 'kind', t.kind, 'duration', t.duration,
      'classSize', t.class_size, 'paddingBefore', t.padding_before,
      'paddingAfter', t.padding_after, 'slotInterval', t.slot_interval,
      'minHoursInAdvance', t.min_hours_in_advance, 'maxDaysInAdvance', t.max_days_in_advance,
      'priceCents', t.price_cents, 'deletedAt', t.deleted_at, 'maxPerDay', t.max_per_day,
      'maxPerWeek', t.max_per_week,
      'hasForms', EXISTS (SELECT 1 FROM appointment_type_forms f WHERE f.appointment_type_id = t.id))
     FROM appointment_types t WHERE t.id = ? AND t.account_id = c.account_id) AS typeColumns,
  EXISTS (SELECT 1 FROM appointment_type_calendars l
           WHERE l.appointment_type_id = ? AND l.calendar_id = c.id) AS offered`;

export function contextCheckParameters(typeId: number): unknown[] {
  return [typeId, typeId];
}

/** Throws StaleSlotContextError unless the row read under the lock is what `stamp` was made of. */
export function assertContextCurrent(row: Record<string, unknown>, stamp: string): void {
  const typeColumns = json<Record<string, unknown> | null>(
    row.typeColumns as string | Record<string, unknown> | null,
  );
  // The type's columns last: its `id` is the type's, not the calendar's (`c.id` of the lock).
  if (
    typeColumns === null ||
    stampOf({ ...row, ...typeColumns } as unknown as ContextRow) !== stamp
  )
    throw new StaleSlotContextError();
}
