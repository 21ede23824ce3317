import { DAY, HOUR } from '../../common/time/durations';
import type { Account } from '../accounts';
import { BusyKind } from '../catalog';
import type { AvailableTimesRequest } from './availability.requests';
import { hasLimits } from './booking-limits';
import { type SlotContext, isOffered } from './slot-context';
import type { Span } from './working-time';

/** What a `/times` answer reads of the account (the principal's, as authenticated). */
export type AnsweringAccount = Pick<
  Account,
  'id' | 'timezone' | 'minHoursInAdvance' | 'maxDaysInAdvance'
>;

/**
 * Every part of a `/times` question its answer depends on, with the account's settings it reads: a
 * pod whose principal still has old settings (a change not heard of yet, within AUTH_CACHE_TTL_MS)
 * keeps its answers apart (JSON: no two questions share a key, whatever their strings hold).
 */
export function timesKey(account: AnsweringAccount, query: AvailableTimesRequest): string {
  return JSON.stringify([
    account.id,
    account.timezone,
    account.minHoursInAdvance,
    account.maxDaysInAdvance,
    query.appointmentTypeID,
    query.calendarID ?? null,
    query.date,
    query.timezone ?? null,
    query.addonIDs ?? null,
    query.ignoreAppointmentIDs ?? null,
  ]);
}

/**
 * The last instant at which `/times` gives the same `starts` for `day` (or `/dates` for a month)
 * while its data stays as it was; `now` when the clock alone may change them sooner than anyone
 * can tell:
 * - a class's seats count live holds, which expire: not kept;
 * - a service whose calendars ever had a hold (BusyKind.holds; the pages hold each time chosen; or
 *   heldMembers, a collective type's hold of the other calendars), or
 *   that needs a resource a live hold uses (on any calendar: SlotContext.resourcesHeld), or
 *   with booking limits (they count live holds): not kept, an expiring hold frees its time;
 * - a day not wholly within the maximum advance gains times as the clock moves: not kept;
 * - otherwise the clock only takes times away, at the minimum notice: the same until the first time
 *   is less than the notice away; with no time (or calendar), the same until the data changes.
 */
export function timesValidUntil(
  ctx: SlotContext,
  day: Span,
  starts: Iterable<number>,
  now: number,
): number {
  if (ctx.type.kind === 'class') return now;
  if (!isOffered(ctx) || ctx.calendars.length === 0) return Infinity;
  const kinds = ctx.calendarsBusyKinds;
  if (kinds === undefined || kinds & (BusyKind.holds | BusyKind.heldMembers) || ctx.resourcesHeld)
    return now;
  if (hasLimits(ctx.type) || ctx.calendars.some((c) => hasLimits(c))) return now;
  if (day.until - 1 > now + ctx.rules.maxDaysInAdvance * DAY) return now;
  return Math.min(...starts) - ctx.rules.minHoursInAdvance * HOUR;
}
