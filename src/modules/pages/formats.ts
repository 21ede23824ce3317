import { DateTime } from 'luxon';
import { BoundedMap } from '../../common/cache/bounded-map';
import { formatCents } from '../../common/money/money';
import { isAnyYearDate, utcMidnightOf } from '../../common/time/calendar-dates';

/**
 * `9:30am` of a time of the time list (`2030-06-03T09:30:00-0400`): the wall clock it is written
 * in, read off its digits (a page lists dozens; through luxon they were most of its CPU).
 */
export function clockOf(time: string): string {
  const hour = Number(time.slice(11, 13));
  return `${hour % 12 || 12}:${time.slice(14, 16)}${hour < 12 ? 'am' : 'pm'}`;
}

/** One formatter of whole days, made once (luxon's toFormat costs a parse and a formatter each call). */
const days = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  year: 'numeric',
});

/** Days written, by date: a page writes the same few dates again and again. */
const writtenDays = new BoundedMap<string, string>(4096);

/** `Monday, June 3, 2030` of a `YYYY-MM-DD`; a date no calendar has (`2030-02-31`) as it is. */
export function dayOf(date: string): string {
  let day = writtenDays.get(date);
  if (day === undefined) {
    day = isAnyYearDate(date) ? days.format(utcMidnightOf(date)) : date;
    writtenDays.set(date, day);
  }
  return day;
}

/** `June 2030` of a `YYYY-MM`. */
export function monthOf(month: string): string {
  return DateTime.fromISO(`${month}-01`, { zone: 'UTC' }).toFormat('LLLL yyyy');
}

/** The month before or after a `YYYY-MM`. */
export function shiftMonth(month: string, by: number): string {
  return DateTime.fromISO(`${month}-01`, { zone: 'UTC' }).plus({ months: by }).toFormat('yyyy-MM');
}

/** One formatter of moments per zone, made on first use (luxon's toFormat builds one each call). */
const moments = new BoundedMap<string, Intl.DateTimeFormat>(2048);

function momentFormatOf(zone: string): Intl.DateTimeFormat {
  let format = moments.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      weekday: 'long',
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
      timeZoneName: 'short',
    });
    moments.set(zone, format);
  }
  return format;
}

/**
 * `Monday, June 3, 2030 at 9:30am (EDT)`: an instant (a `Date`, or a time as the API writes it) in
 * a zone, with the zone's abbreviation at that instant.
 */
export function momentIn(instant: Date | string, zone: string): string {
  const at =
    typeof instant === 'string'
      ? DateTime.fromISO(instant, { setZone: true }).toMillis()
      : instant.getTime();
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of momentFormatOf(zone).formatToParts(at)) part[type] = value;
  const { weekday, month, day, year, hour, minute, dayPeriod, timeZoneName } = part;
  return `${weekday}, ${month} ${day}, ${year} at ${hour}:${minute}${dayPeriod!.toLowerCase()} (${timeZoneName})`;
}

/** `$40.00` (in the account's currency), or `Free`. */
export function priceOf(decimal: string | number, currency: string): string {
  const amount = Number(decimal);
  if (amount === 0) return 'Free';
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
  } catch {
    return `${formatCents(Math.round(amount * 100))} ${currency}`;
  }
}

/** Every zone the runtime knows (Node's ICU: canonical names, no `UTC`), for the zone picker. */
export const ZONES: readonly string[] = ['UTC', ...Intl.supportedValuesOf('timeZone')];

/** The picker's zones, with the one shown first if the list has it under another name. */
export function zonesWith(zone: string): readonly string[] {
  return ZONES.includes(zone) ? ZONES : [zone, ...ZONES];
}
