import { isAnyYearDate, isCalendarDate, utcMidnightOf } from '../../common/time/calendar-dates';
import type { InvalidAttributeError } from '../../common/errors/domain-error';
import { DAY } from '../../common/time/durations';
import { InvalidHoursError, InvalidOverridesError } from './catalog.errors';

/*
 * A calendar's working hours: weekly intervals by day name, and per-date overrides. Times are wall
 * clock `HH:MM` in the calendar's zone; the slot engine turns them into instants, so nothing here
 * knows about zones or DST.
 */

type DayName = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';

/** `[start, end)` of one working period; `end` may be `24:00` (midnight at the end of the day). */
export interface Interval {
  start: string;
  end: string;
}

/** A day that is absent is closed. */
export type WeeklyHours = Partial<Record<DayName, Interval[]>>;

/** `YYYY-MM-DD` → that day's intervals instead of the weekly ones; `[]` closes the day. */
export type DateOverrides = Record<string, Interval[]>;

/** In ISO weekday order (luxon's `weekday` 1 is Monday). */
export const DAY_NAMES: readonly DayName[] = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
];

const MAX_INTERVALS_PER_DAY = 12;
const MAX_OVERRIDE_DATES = 1000;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const END_OF_DAY = '24:00';

/** Validates and normalizes `hours`: days in week order, each day's intervals sorted by start. */
export function parseWeeklyHours(value: unknown): WeeklyHours {
  const invalid = (problem: string) => new InvalidHoursError(problem);
  if (!isPlainObject(value)) throw invalid('expected an object of day names');
  const days = new Set<string>(DAY_NAMES);
  const unknown = Object.keys(value).find((key) => !days.has(key));
  if (unknown !== undefined) throw invalid(`unknown day ${JSON.stringify(unknown)}`);
  const hours: WeeklyHours = {};
  for (const day of DAY_NAMES) {
    if (value[day] !== undefined) hours[day] = parseIntervals(value[day], day, invalid);
  }
  return hours;
}

/** Validates and normalizes `overrides`: real dates, sorted, each with its sorted intervals. */
export function parseDateOverrides(value: unknown): DateOverrides {
  const invalid = (problem: string) => new InvalidOverridesError(problem);
  if (!isPlainObject(value)) throw invalid('expected an object of dates (YYYY-MM-DD)');
  const dates = Object.keys(value);
  if (dates.length > MAX_OVERRIDE_DATES) throw invalid(`more than ${MAX_OVERRIDE_DATES} dates`);
  const notADate = dates.find((date) => !isCalendarDate(date));
  if (notADate !== undefined) {
    throw invalid(`${JSON.stringify(notADate)} is not a date (YYYY-MM-DD)`);
  }
  const overrides: DateOverrides = {};
  for (const date of dates.sort()) overrides[date] = parseIntervals(value[date], date, invalid);
  return overrides;
}

/** The working intervals of `date` (`YYYY-MM-DD`): its override, else its weekday's hours. */
export function workingIntervalsOn(
  hours: WeeklyHours,
  overrides: DateOverrides,
  date: string,
): Interval[] {
  // Any year: the slot engine also asks about the days just outside the supported ones.
  if (!isAnyYearDate(date)) throw new Error(`Not a calendar date: ${JSON.stringify(date)}`);
  const intervals = intervalsOfDay(hours, overrides, date, utcMidnightOf(date) / DAY);
  return intervals.map(({ start, end }) => ({ start, end }));
}

/**
 * The working intervals of a date known by its text and its day number (days since 1970-01-01,
 * a Thursday), not copied: the slot engine reads them for every day of a month.
 */
export function intervalsOfDay(
  hours: WeeklyHours,
  overrides: DateOverrides,
  date: string,
  day: number,
): readonly Interval[] {
  const weekday = (((day + 3) % 7) + 7) % 7;
  return (Object.hasOwn(overrides, date) ? overrides[date] : hours[DAY_NAMES[weekday]]) ?? [];
}

/** Minutes since the start of the day of an `HH:MM` (or `24:00`) time. */
function minutesOfDay(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return hours * 60 + minutes;
}

function parseIntervals(
  value: unknown,
  label: string,
  invalid: (problem: string) => InvalidAttributeError,
): Interval[] {
  if (!Array.isArray(value)) throw invalid(`${label} must be an array of intervals`);
  if (value.length > MAX_INTERVALS_PER_DAY) {
    throw invalid(`${label} has more than ${MAX_INTERVALS_PER_DAY} intervals`);
  }
  const intervals = value.map((item: unknown, index): Interval => {
    const name = `${label} interval ${index + 1}`;
    if (!isPlainObject(item)) throw invalid(`${name} must be an object with "start" and "end"`);
    const { start, end } = item;
    if (start === undefined) throw invalid(`${name} has no "start"`);
    if (typeof start !== 'string' || !TIME.test(start)) {
      throw invalid(`${name} start ${JSON.stringify(start)} is not a time (HH:MM, 00:00 to 23:59)`);
    }
    if (end === undefined) throw invalid(`${name} has no "end"`);
    if (typeof end !== 'string' || !(TIME.test(end) || end === END_OF_DAY)) {
      throw invalid(`${name} end ${JSON.stringify(end)} is not a time (HH:MM, 00:00 to 24:00)`);
    }
    if (minutesOfDay(end) < minutesOfDay(start)) {
      throw invalid(`${label} ${start}-${end} ends before it starts`);
    }
    if (end === start) throw invalid(`${label} ${start}-${end} ends when it starts`);
    // Only the two times are kept: an interval's other keys are dropped, as unknown attributes are.
    return { start, end };
  });
  intervals.sort((a, b) => minutesOfDay(a.start) - minutesOfDay(b.start));
  // Sorted by start, two intervals overlap exactly when one starts before the previous one ends;
  // touching (09:00-12:00 then 12:00-13:00) is a break-free day, not an overlap.
  for (let i = 1; i < intervals.length; i++) {
    const [previous, current] = [intervals[i - 1], intervals[i]];
    if (minutesOfDay(current.start) < minutesOfDay(previous.end)) {
      throw invalid(
        `${label} ${previous.start}-${previous.end} overlaps ${current.start}-${current.end}`,
      );
    }
  }
  return intervals;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
