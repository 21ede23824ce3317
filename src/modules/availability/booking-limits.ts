import { DateTime } from 'luxon';
import type { EntityManager } from 'typeorm';
import { DAY } from '../../common/time/durations';
import { countIn, lockType, startsIn } from './booking-limits.repository';
import type { SlotCalendar, SlotContext } from './slot-context';
import { type Span, kept } from './working-time';

/*
 * Booking limits: at most `maxPerDay` live appointments a local day and `maxPerWeek` an ISO week
 * (from Monday 00:00, whatever the locale) of a type and of a calendar, each booking counted in its
 * calendar's zone. Live holds count as their appointments (a held time booked cannot pass a limit);
 * admin bookings are never checked, but count. Enforced twice: `/availability/*` leaves out a full
 * day's or week's times (limitFilter); a client's booking or hold checks under its locks
 * (withinLimits): the calendar's row lock serializes its limit, the type's row (locked, written,
 * when it has a limit) serializes its bookings on different calendars.
 */

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

/** What a count leaves out: the booking client's own hold, a moved appointment itself. */
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
  const full = async (max: number | null, period: Span) =>
    max !== null && !fits(max, await countIn(tx, of, id, period, ignore));
  if (await full(limits.maxPerDay, periods.day)) return false;
  return !(await full(limits.maxPerWeek, periods.week));
}

/** Under the locks: whether one more at `start` fits the limits (the type's row locked if any). */
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

/** For `/availability/*` over `window`: whether a start fits the limits; null if there are none. */
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
  const starts = (of: 'appointment_type_id' | 'calendar_id', id: number) =>
    startsIn(manager, of, id, span, pageHolds);
  const typeStarts = hasLimits(type) ? await starts('appointment_type_id', type.id) : [];
  const calendarStarts = new Map<number, number[]>();
  for (const calendar of limited)
    calendarStarts.set(calendar.id, await starts('calendar_id', calendar.id));
  const within = (limits: Limits, starts: number[], periods: { day: Span; week: Span }) =>
    fits(limits.maxPerDay, countStarts(starts, periods.day)) &&
    fits(limits.maxPerWeek, countStarts(starts, periods.week));
  const memo = new Map<string, boolean>();
  return (calendar, start) => {
    const periods = limitPeriods(start, calendar.timezone);
    const key = `${calendar.id}:${periods.day.from}`;
    const calendarLimits = () => within(calendar, calendarStarts.get(calendar.id) ?? [], periods);
    return kept(memo, key, () => within(type, typeStarts, periods) && calendarLimits());
  };
}

function countStarts(starts: number[], period: Span): number {
  return starts.filter((s) => s >= period.from && s < period.until).length;
}
