import { DateTime } from 'luxon';
import type { EntityManager } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import { DAY } from '../../common/time/durations';
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

/** Live appointments and holds of a type, or of a calendar, starting in a period. */
const COUNT_BY = {
  type: `SELECT
      (SELECT COUNT(*) FROM appointments a
        WHERE a.appointment_type_id = ? AND a.starts_at >= ? AND a.starts_at < ? AND a.canceled = 0
          AND a.id <> ?)
    + (SELECT COUNT(*) FROM slot_holds h
        WHERE h.appointment_type_id = ? AND h.starts_at >= ? AND h.starts_at < ?
          AND h.expires_at > ? AND h.id <> ?) AS n`,
  // busy_from is at most a day (the longest padding) before the start: both index ranges bounded.
  calendar: `SELECT
      (SELECT COUNT(*) FROM appointments a
        WHERE a.calendar_id = ? AND a.busy_from >= ? AND a.busy_from < ?
          AND a.starts_at >= ? AND a.starts_at < ? AND a.canceled = 0 AND a.id <> ?)
    + (SELECT COUNT(*) FROM slot_holds h
        WHERE h.calendar_id = ? AND h.busy_from >= ? AND h.busy_from < ?
          AND h.starts_at >= ? AND h.starts_at < ? AND h.expires_at > ? AND h.id <> ?) AS n`,
};

/**
 * What a limit's count leaves out: the booking client's own hold (it becomes the appointment), a
 * moved appointment itself (it leaves its old day).
 */
export interface LimitIgnores {
  holdId?: number;
  appointmentId?: number;
}

async function countIn(
  tx: EntityManager,
  of: 'type' | 'calendar',
  id: number,
  period: Span,
  { holdId = 0, appointmentId = 0 }: LimitIgnores,
): Promise<number> {
  const from = new Date(period.from);
  const until = new Date(period.until);
  const now = new Date();
  const parameters =
    of === 'type'
      ? [id, from, until, appointmentId, id, from, until, now, holdId]
      : [
          ...[id, new Date(period.from - DAY), until, from, until, appointmentId],
          ...[id, new Date(period.from - DAY), until, from, until, now, holdId],
        ];
  const [row] = await queryPrepared<{ n: string | number }[]>(tx, COUNT_BY[of], parameters);
  return Number(row.n);
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
    await queryPrepared(tx, 'SELECT id FROM appointment_types WHERE id = ? FOR UPDATE', [
      ctx.type.id,
    ]);
    if (!(await limitAllows(tx, 'type', ctx.type.id, ctx.type, periods, ignore))) return false;
  }
  return limitAllows(tx, 'calendar', calendar.id, calendar, periods, ignore);
}

/**
 * The starts of live appointments and holds of a type or a calendar in `span`; without the
 * scheduling page's holds when `pageHolds` is false (what a day offers without them).
 */
async function startsIn(
  manager: EntityManager,
  column: 'appointment_type_id' | 'calendar_id',
  id: number,
  span: Span,
  pageHolds = true,
): Promise<number[]> {
  const from = new Date(span.from);
  const until = new Date(span.until);
  // By calendar, the index is (calendar_id, busy_from): busy_from is at most a day before the start.
  const bounded = column === 'calendar_id' ? 'AND busy_from >= ? AND busy_from < ?' : '';
  const bounds = column === 'calendar_id' ? [new Date(span.from - DAY), until] : [];
  const rows = await queryPrepared<{ startsAt: Date }[]>(
    manager,
    `SELECT starts_at AS startsAt FROM appointments
      WHERE ${column} = ? ${bounded} AND starts_at >= ? AND starts_at < ? AND canceled = 0
     UNION ALL
     SELECT starts_at AS startsAt FROM slot_holds
      WHERE ${column} = ? ${bounded} AND starts_at >= ? AND starts_at < ? AND expires_at > ?
        ${pageHolds ? '' : "AND origin <> 'page'"}`,
    [id, ...bounds, from, until, id, ...bounds, from, until, new Date()],
  );
  return rows.map((r) => new Date(r.startsAt).getTime());
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
