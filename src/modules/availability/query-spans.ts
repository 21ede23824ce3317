import { DateTime } from 'luxon';
import { isCalendarDate, isCalendarMonth, utcMidnightOf } from '../../common/time/calendar-dates';
import { DAY, HOUR, MINUTE } from '../../common/time/durations';
import { isValidTimezone } from '../../common/time/zones';
import type { Account } from '../accounts';
import type { AvailableClassesRequest } from './availability.requests';
import {
  type InvalidDateCode,
  InvalidDateError,
  InvalidMonthError,
  MaxDateBeforeMinDateError,
} from './availability.errors';
import { advanceWindow } from './slot-engine';
import { type Span, nextDate, startOfLocalDate, zoneClock } from './working-time';

/* The spans of real time queries ask about (a month, a day, a list's dates), in a zone. */

/** The real time a list's `minDate` to `maxDate` (inclusive, in `zone`) covers; 400 if reversed. */
export function localDateBounds(
  zone: string,
  { minDate, maxDate }: { minDate?: string; maxDate?: string },
): { from?: Date; until?: Date } {
  if (minDate && maxDate && maxDate < minDate)
    throw new MaxDateBeforeMinDateError(minDate, maxDate);
  return {
    from: minDate ? new Date(startOfLocalDate(zone, minDate)) : undefined,
    until: maxDate ? new Date(startOfLocalDate(zone, nextDate(maxDate))) : undefined,
  };
}

/** The month's span in UTC, for a month that is checked later (an invalid one is empty). */
export function monthInUtc(value: string): Span {
  return isCalendarMonth(value) ? parseMonth(value, 'UTC') : { from: 0, until: 0 };
}

/** The day's span in UTC, for a date that is checked later (an invalid one is empty). */
export function dayInUtc(value: string): Span {
  return isCalendarDate(value) ? parseDay(value, 'UTC') : { from: 0, until: 0 };
}

/** Whatever zone a date or month is read in, it lies within 14 hours of its UTC reading. */
export function anyZoneSpan(utc: Span): Span {
  return { from: utc.from - 14 * HOUR, until: utc.until + 14 * HOUR };
}

export function parseMonth(value: string, zone: string): Span {
  if (!isCalendarMonth(value)) throw new InvalidMonthError(value);
  // An unknown zone is the caller's to refuse (assertTimezone): this reads only known ones.
  if (!isValidTimezone(zone)) throw new InvalidMonthError(value);
  const index = Number(value.slice(0, 4)) * 12 + Number(value.slice(5, 7));
  const next = `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`;
  const from = steadyMidnight(zone, `${value}-01`);
  const until = steadyMidnight(zone, next);
  if (from !== undefined && until !== undefined) return { from, until };
  const start = DateTime.fromObject(
    { year: Number(value.slice(0, 4)), month: Number(value.slice(5, 7)), day: 1 },
    { zone },
  );
  if (!start.isValid) throw new InvalidMonthError(value);
  return { from: start.toMillis(), until: start.plus({ months: 1 }).toMillis() };
}

/**
 * The date's midnight in `zone` by arithmetic (the zone's kept clock, no `Intl` formatting: the
 * month's dates read two on every request) when the offset holds a day either side of it; then it
 * is the one luxon gives. Undefined near an offset change, left to luxon (its rule for a midnight
 * that a change skips or repeats).
 */
function steadyMidnight(zone: string, date: string): number | undefined {
  const midnight = utcMidnightOf(date);
  const around = zoneClock(zone, midnight - DAY, midnight + DAY).segmentsWithin(
    midnight - DAY,
    midnight + DAY,
  );
  return around.length === 1 ? midnight - around[0].offset * MINUTE : undefined;
}

export function parseDay(
  value: string,
  zone: string,
  code: InvalidDateCode = 'invalid_date',
): Span {
  if (!isCalendarDate(value)) throw new InvalidDateError(code, value);
  return { from: startOfLocalDate(zone, value), until: startOfLocalDate(zone, nextDate(value)) };
}

/**
 * The sessions `/availability/classes` lists: the month asked for (the reference: `minDate` and
 * `maxDate` are "over-ridden by month", still checked), else `minDate` to `maxDate` (inclusive),
 * from now by default, to the booking horizon seen from `minDate` (or now) by default.
 */
export function classRange(
  query: AvailableClassesRequest,
  zone: string,
  account: Account,
  now: number,
): Span {
  const min =
    query.minDate === undefined ? undefined : parseDay(query.minDate, zone, 'invalid_min_date');
  const max =
    query.maxDate === undefined ? undefined : parseDay(query.maxDate, zone, 'invalid_max_date');
  if (query.month !== undefined) return parseMonth(query.month, zone);
  const from = min?.from ?? now;
  const until = max?.until ?? advanceWindow(account, from).latest;
  return { from, until: Math.max(from, until) };
}
