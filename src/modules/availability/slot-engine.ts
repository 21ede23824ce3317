import { DAY, HOUR, MINUTE } from '../../common/time/durations';
import { type DateOverrides, type WeeklyHours, intervalsOfDay } from '../catalog';
import { type Span, mergeSpans, spansOfDay, zoneClock } from './working-time';

/*
 * The slot engine: which starts a calendar can take, from its hours, overrides and busy time and
 * the type's rules. Pure (`now` given): `/availability/*` and booking both ask it, so they agree.
 */

export interface CalendarSchedule {
  /** IANA zone of the hours and overrides. */
  zone: string;
  hours: WeeklyHours;
  overrides: DateOverrides;
  /** Time taken (appointments with their padding, blocks, sessions, …), in any order. */
  busy: Span[];
}

/** What is being booked, and when it may be. */
export interface SlotRules {
  /** Minutes: the type's duration plus the chosen addons'. */
  duration: number;
  paddingBefore: number;
  paddingAfter: number;
  /** Minutes between candidate starts, from the start of each working span. */
  slotInterval: number;
  minHoursInAdvance: number;
  maxDaysInAdvance: number;
}

/** Why a start cannot be booked: the `error` code POST /appointments gives. */
export type Unavailable =
  'not_available_min_hours_in_advance' | 'not_available_max_days_in_advance' | 'not_available';

/** The bookable span of starts: `[now + minHours, now + maxDays]`. */
export function advanceWindow(
  rules: Pick<SlotRules, 'minHoursInAdvance' | 'maxDaysInAdvance'>,
  now: number,
): { earliest: number; latest: number } {
  return {
    earliest: now + rules.minHoursInAdvance * HOUR,
    latest: now + rules.maxDaysInAdvance * DAY,
  };
}

/**
 * The starts (ascending, distinct) the calendar can take in `window`, within the advance window: on
 * each working span's grid, the padded span `[start - paddingBefore, start + duration +
 * paddingAfter)` inside that working span and clear of busy time. With `firstOfEachDay`, only the
 * first of each local day of the calendar (what tells the days that have one).
 */
export function freeStarts(
  calendar: CalendarSchedule,
  rules: SlotRules,
  window: Span,
  now: number,
  firstOfEachDay = false,
): number[] {
  const { earliest, latest } = advanceWindow(rules, now);
  const from = Math.max(window.from, earliest);
  const until = Math.min(window.until, latest + 1);
  if (from >= until) return [];
  const busy = mergeSpans(calendar.busy);
  const step = rules.slotInterval * MINUTE;
  const before = rules.paddingBefore * MINUTE;
  const after = (rules.duration + rules.paddingAfter) * MINUTE;
  const starts: number[] = [];
  // A start lies in a working span of its own local date: the days from `from`'s to `until`'s.
  const clock = zoneClock(calendar.zone, from, until);
  const { hours, overrides } = calendar;
  const lastDay = clock.dayOf(until - 1);
  days: for (let day = clock.dayOf(from); day <= lastDay; day++) {
    const intervals = intervalsOfDay(hours, overrides, clock.dateOfDay(day), day);
    for (const span of spansOfDay(clock, intervals, day)) {
      for (let start = span.from; start + after <= span.until; start += step) {
        if (start < from || start >= until || start - before < span.from) continue;
        if (overlapsAny(busy, start - before, start + after)) continue;
        starts.push(start);
        if (firstOfEachDay) continue days;
      }
    }
  }
  return starts;
}

/**
 * The starts (ascending) every calendar can take in `window`, each within its own `fits` too: a
 * collective type's times, the intersection of its calendars' free starts (each calendar's grid of
 * its own working spans; a start must be on every one's).
 */
export function commonStartsOf(
  calendars: readonly { schedule: CalendarSchedule; fits?: (start: number) => boolean }[],
  rules: SlotRules,
  window: Span,
  now: number,
): number[] {
  if (calendars.length === 0) return [];
  let common: number[] | undefined;
  for (const { schedule, fits } of calendars) {
    const free = new Set(
      freeStarts(schedule, rules, window, now).filter((start) => !fits || fits(start)),
    );
    common = (common ?? [...free]).filter((start) => free.has(start));
    if (common.length === 0) break;
  }
  return common ?? [];
}

/** Whether the calendar can take `start`, and if not, why (in the order booking checks). */
export function checkStart(
  calendar: CalendarSchedule,
  rules: SlotRules,
  start: number,
  now: number,
): Unavailable | null {
  const { earliest, latest } = advanceWindow(rules, now);
  if (start < earliest) return 'not_available_min_hours_in_advance';
  if (start > latest) return 'not_available_max_days_in_advance';
  const free = freeStarts(calendar, rules, { from: start, until: start + 1 }, now);
  return free.length === 1 ? null : 'not_available';
}

export interface SessionSeats {
  start: number;
  seats: number;
  /** Seats taken by non-canceled appointments. */
  taken: number;
}

/** Whether a class session can take one more client at `now`, and if not, why. */
export function checkSession(
  session: SessionSeats,
  rules: Pick<SlotRules, 'minHoursInAdvance' | 'maxDaysInAdvance'>,
  now: number,
): Unavailable | null {
  const { earliest, latest } = advanceWindow(rules, now);
  if (session.start < earliest) return 'not_available_min_hours_in_advance';
  if (session.start > latest) return 'not_available_max_days_in_advance';
  return session.seats > session.taken ? null : 'not_available';
}

/** Merged spans are sorted and disjoint: only the last one starting before `until` may overlap. */
function overlapsAny(busy: Span[], from: number, until: number): boolean {
  let low = 0;
  let high = busy.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (busy[mid].from < until) low = mid + 1;
    else high = mid;
  }
  return low > 0 && busy[low - 1].until > from;
}
