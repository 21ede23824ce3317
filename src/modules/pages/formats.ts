import { DateTime } from 'luxon';
import { BoundedMap } from '../../common/cache/bounded-map';
import { escapeHtml } from '../../common/html/escape-html';
import { formatCents } from '../../common/money/money';
import { isAnyYearDate, utcMidnightOf } from '../../common/time/calendar-dates';

/*
 * What the pages write of times, dates and prices. The formatters are made once: luxon's toFormat
 * and a new Intl.DateTimeFormat each cost a parse and a formatter per call, and a page writes dozens.
 */

/** `9:30am` of a time of the time list (`2030-06-03T09:30:00-0400`), read off its digits. */
export function clockOf(time: string): string {
  const hour = Number(time.slice(11, 13));
  return `${hour % 12 || 12}:${time.slice(14, 16)}${hour < 12 ? 'am' : 'pm'}`;
}

const days = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  year: 'numeric',
});
const MONTHS = Array.from({ length: 12 }, (_, i) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long' }).format(Date.UTC(2000, i)),
);
/** A page writes the same few dates again and again. */
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
  return `${MONTHS[Number(month.slice(5, 7)) - 1]} ${Number(month.slice(0, 4))}`;
}

/** The month before or after a `YYYY-MM`. */
export function shiftMonth(month: string, by: number): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + by;
  const year = String(Math.floor(index / 12)).padStart(4, '0');
  return `${year}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** One formatter of moments per zone, made on first use. */
const moments = new BoundedMap<string, Intl.DateTimeFormat>(2048);

/**
 * `Monday, June 3, 2030 at 9:30am (EDT)`: an instant (a `Date`, or a time as the API writes it) in
 * a zone, with the zone's abbreviation at that instant.
 */
export function momentIn(instant: Date | string, zone: string): string {
  const at =
    typeof instant === 'string'
      ? DateTime.fromISO(instant, { setZone: true }).toMillis()
      : instant.getTime();
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
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of format.formatToParts(at)) part[type] = value;
  const { weekday, month, day, year, hour, minute, dayPeriod, timeZoneName } = part;
  return `${weekday}, ${month} ${day}, ${year} at ${hour}:${minute}${dayPeriod!.toLowerCase()} (${timeZoneName})`;
}

/** One formatter per currency, made on first use; null for a code Intl does not take. */
const prices = new BoundedMap<string, Intl.NumberFormat | null>(512);

/** `$40.00` (in the account's currency), or `Free`. */
export function priceOf(decimal: string | number, currency: string): string {
  const amount = Number(decimal);
  if (amount === 0) return 'Free';
  let format = prices.get(currency);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    } catch {
      format = null;
    }
    prices.set(currency, format);
  }
  return format?.format(amount) ?? `${formatCents(Math.round(amount * 100))} ${currency}`;
}

/** Every zone the runtime knows (Node's ICU: canonical names, no `UTC`), for the zone picker. */
const ZONES: readonly string[] = ['UTC', ...Intl.supportedValuesOf('timeZone')];

const option = (zone: string, selected = false) =>
  `<option${selected ? ' selected' : ''}>${escapeHtml(zone)}</option>`;
/** The picker's options, written once: two thirds of the date step's HTML, the same every time. */
const ZONE_OPTIONS = ZONES.map((zone) => option(zone)).join('');

/** The picker's options with `zone` selected; first if the list has it under another name or not. */
export function zoneOptions(zone: string): string {
  const listed = ZONE_OPTIONS.replace(option(zone), () => option(zone, true));
  return listed === ZONE_OPTIONS ? option(zone, true) + ZONE_OPTIONS : listed;
}
