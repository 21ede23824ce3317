import { DateTime } from 'luxon';
import { isCalendarDate, isCalendarMonth } from '../../common/time/calendar-dates';
import { HOUR } from '../../common/time/durations';
import type { Account } from '../accounts';
import type { AvailableClassesRequest } from './availability.requests';
import {
  type InvalidDateCode,
  InvalidDateError,
  InvalidMonthError,
  MaxDateBeforeMinDateError,
} from './availability.errors';
import { advanceWindow } from './slot-engine';
import { type Span, nextDate, startOfLocalDate } from './working-time';

/*
 * The spans of real time that queries ask about (a month, a day, the sessions listed, a list's
 * dates), read in the zone they are asked in.
 */

/**
 * The real time that a list's `minDate` to `maxDate` (inclusive, local dates in `zone`) covers, for
 * the lists of blocks and of appointments; 400 when they are the wrong way round. The dates are
 * calendar dates of the supported years (their validators: isCalendarDate), so the bounds are
 * instants a DATETIME compares with.
 */
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

/** `YYYY-MM` → the month's span in `zone`. */
export function parseMonth(value: string, zone: string): Span {
  if (!isCalendarMonth(value)) throw new InvalidMonthError(value);
  const start = DateTime.fromObject(
    { year: Number(value.slice(0, 4)), month: Number(value.slice(5, 7)), day: 1 },
    { zone },
  );
  // An unknown zone is the caller's to refuse (assertTimezone): this reads only known ones.
  if (!start.isValid) throw new InvalidMonthError(value);
  return { from: start.toMillis(), until: start.plus({ months: 1 }).toMillis() };
}

/** `YYYY-MM-DD` → the day's span in `zone`. */
export function parseDay(
  value: string,
  zone: string,
  code: InvalidDateCode = 'invalid_date',
): Span {
  if (!isCalendarDate(value)) throw new InvalidDateError(code, value);
  return { from: startOfLocalDate(zone, value), until: startOfLocalDate(zone, nextDate(value)) };
}

/**
 * The sessions `/availability/classes` lists: the month asked for (it wins over `minDate` and
 * `maxDate`, as the reference documents them: "over-ridden by month"; they are still checked), else
 * `minDate` to `maxDate` (inclusive); without any of them, from now to the account's booking
 * horizon, and from `minDate` to the horizon seen from it.
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
