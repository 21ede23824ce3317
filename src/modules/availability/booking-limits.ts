import { DateTime } from 'luxon';
import type { EntityManager } from 'typeorm';
import { DAY } from '../../common/time/durations';
import { countIn, lockType, startsIn } from './booking-limits.repository';
import type { SlotCalendar, SlotContext } from './slot-context';
import type { Span } from './working-time';

/*
 * Booking limits: at most `maxPerDay` live appointments a local day, and `maxPerWeek` an ISO week
 * (Monday 00:00 to the next Monday, the same everywhere, whatever the account's locale), of an
 * appointment type and of a calendar. Days and weeks are those of the booked calendar's zone: a type
 * booked on calendars of two zones counts each booking in its own calendar's day. Live slot holds
 * count as the appointments they hold for, so that a held time cannot take a day past its limit
 * when it is booked. Admin bookings are exempt (they are never checked) but count.
 *
 * Enforced twice, like the rest of availability: `/availability/*` leaves out the times of a full
 * day or week (limitFilter), and a client's booking or hold checks under its locks (withinLimits):
 * the calendar's row lock serializes the calendar's limit, the type's row (locked FOR UPDATE, only
 * when the type has a limit) serializes bookings of the type on different calendars.
 */

/** A type's or a calendar's limits. */
export interface Limits {
  maxPerDay: number | null;
  maxPerWeek: number | null;
}

export function hasLimits(limits: Limits): boolean {
  return limits.maxPerDay !== null || limits.maxPerWeek !== null;
}

/** The local day and ISO week of `start` in `zone`, as real time. */
export function limitPeriods(start: number, zone: string): { day: Span; week: Span } {
  const local = DateTime.fromMillis(start, { zone });
  const day = local.startOf('day');
  const week = local.startOf('week');
  return {
    day: { from: day.toMillis(), until: day.plus({ days: 1 }).toMillis() },
    week: { from: week.toMillis(), until: week.plus({ weeks: 1 }).toMillis() },
  };
}

/** Whether one more fits on top of `taken` in a period whose limit is `max`. */
function fits(max: number | null, taken: number): boolean {
  return max === null || taken < max;
}

/**
 * What a limit's count leaves out: the booking client's own hold (it becomes the appointment), a
 * moved appointment itself (it leaves its old day).
 */
export interface LimitIgnores {
  holdId?: number;
  appointmentId?: number;
}

async function limitAllows(
  tx: EntityManager,
  of: 'type' | 'calendar',
  id: number,
  limits: Limits,
  periods: { day: Span; week: Span },
  ignore: LimitIgnores,
): Promise<boolean> {
  if (limits.maxPerDay !== null) {
    const taken = await countIn(tx, of, id, periods.day, ignore);
    if (!fits(limits.maxPerDay, taken)) return false;
  }
  if (limits.maxPerWeek !== null) {
    const taken = await countIn(tx, of, id, periods.week, ignore);
    if (!fits(limits.maxPerWeek, taken)) return false;
  }
  return true;
}

/**
 * Under the calendars' locks: whether one more appointment of the context's type at `start` on
 * `calendar` stays within the type's and the calendar's limits (`ignore`: what the count leaves
 * out). Locks the type's row when it has a limit.
 */
export async function withinLimits(
  tx: EntityManager,
  ctx: SlotContext,
  calendar: SlotCalendar,
  start: number,
  ignore: LimitIgnores = {},
): Promise<boolean> {
  if (!hasLimits(ctx.type) && !hasLimits(calendar)) return true;
  const periods = limitPeriods(start, calendar.timezone);
  if (hasLimits(ctx.type)) {
    await lockType(tx, ctx.type.id);
    if (!(await limitAllows(tx, 'type', ctx.type.id, ctx.type, periods, ignore))) return false;
  }
  return limitAllows(tx, 'calendar', calendar.id, calendar, periods, ignore);
}

/**
 * For `/availability/*` over starts in `window`: a test of whether a start of `type` on one of
 * `calendars` is within the type's and the calendar's limits, or null when none has any (nothing
 * is read then).
 */
export async function limitFilter(
  manager: EntityManager,
  { type, calendars }: { type: Limits & { id: number }; calendars: SlotCalendar[] },
  window: Span,
  { pageHolds = true }: { pageHolds?: boolean } = {},
): Promise<((calendar: SlotCalendar, start: number) => boolean) | null> {
  const limited = calendars.filter((c) => hasLimits(c));
  if (!hasLimits(type) && limited.length === 0) return null;
  // A week around each end of the window covers the weeks its starts fall in, in any zone.
  const span = { from: window.from - 8 * DAY, until: window.until + 8 * DAY };
  const typeStarts = hasLimits(type)
    ? await startsIn(manager, 'appointment_type_id', type.id, span, pageHolds)
    : [];
  const calendarStarts = new Map<number, number[]>();
  for (const calendar of limited)
    calendarStarts.set(
      calendar.id,
      await startsIn(manager, 'calendar_id', calendar.id, span, pageHolds),
    );
  const within = (limits: Limits, starts: number[], periods: { day: Span; week: Span }) =>
    fits(limits.maxPerDay, countStarts(starts, periods.day)) &&
    fits(limits.maxPerWeek, countStarts(starts, periods.week));
  const memo = new Map<string, boolean>();
  return (calendar, start) => {
    const periods = limitPeriods(start, calendar.timezone);
    const key = `${calendar.id}:${periods.day.from}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const ok =
      within(type, typeStarts, periods) &&
      within(calendar, calendarStarts.get(calendar.id) ?? [], periods);
    memo.set(key, ok);
    return ok;
  };
}

function countStarts(starts: number[], period: Span): number {
  return starts.filter((s) => s >= period.from && s < period.until).length;
}
