import { DateTime, FixedOffsetZone, IANAZone } from 'luxon';
import { FIRST_YEAR, LAST_YEAR, isSupportedYear } from './calendar-dates';
import { offsetOf } from './zones';

const QUARTER_HOUR = 15 * 60_000;

/**
 * `utc` as a DateTime in `zone`, its offset fixed (luxon asks `Intl`, costly, on every formatting).
 * The offset comes from a cache of quarter-hour instants: when both ends of the quarter hour have
 * the same offset, no change lies inside it (none is that short); otherwise the zone is asked.
 */
export function momentInZone(utc: Date | number, zone: string): DateTime {
  const instant = typeof utc === 'number' ? utc : utc.getTime();
  const iana = IANAZone.create(zone);
  if (!iana.isValid) return DateTime.fromMillis(instant, { zone });
  const start = Math.floor(instant / QUARTER_HOUR) * QUARTER_HOUR;
  const before = offsetOf(iana, start);
  const offset = before === offsetOf(iana, start + QUARTER_HOUR) ? before : iana.offset(instant);
  return DateTime.fromMillis(instant, { zone: FixedOffsetZone.instance(offset) });
}

/** The months' names in English, January first. */
export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * The moment's wall clock as the UTC fields of a Date. The formats below are written from it:
 * luxon's toFormat builds a formatter on every call, which every booking paid several times.
 */
function wallClock(moment: DateTime): Date {
  return new Date(moment.toMillis() + moment.offset * 60_000);
}

/** `2026-03-03T14:30:00-0500`: how the API writes a moment, in the zone it is shown in. */
export function formatApiDatetime(moment: DateTime): string {
  const w = wallClock(moment);
  // Whole minutes, as luxon writes them (some zones' historic offsets have seconds).
  const offset = Math.trunc(Math.abs(moment.offset));
  return (
    `${String(w.getUTCFullYear()).padStart(4, '0')}-${pad2(w.getUTCMonth() + 1)}-` +
    `${pad2(w.getUTCDate())}T${pad2(w.getUTCHours())}:${pad2(w.getUTCMinutes())}:` +
    `${pad2(w.getUTCSeconds())}${moment.offset < 0 ? '-' : '+'}` +
    `${pad2(Math.trunc(offset / 60))}${pad2(offset % 60)}`
  );
}

/** The moment `utc` as the API writes it in `zone`. */
export function formatInZone(utc: Date, zone: string): string {
  return formatApiDatetime(momentInZone(utc, zone));
}

export type ParsedDatetime =
  /** A real moment, shown in the zone it was read in (the offset's, or `zone`). */
  | { kind: 'moment'; moment: DateTime }
  /** A local time the zone skips (a DST gap): no such moment exists there. */
  | { kind: 'nonexistent' }
  | { kind: 'invalid' };

const LENIENT =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** The forms parseDatetime reads, for the API's documentation. */
export const LENIENT_DATETIME_RULE =
  '`YYYY-MM-DDThh:mm:ss±hhmm`, or with `±hh:mm`, `Z`, a space for the `T`, without seconds, with ' +
  "a fraction; without an offset the local time is read in the calendar's zone (else the " +
  "account's). A local time that a DST change skips is refused, and so is a year (as written, " +
  `whatever the offset) outside ${FIRST_YEAR}–${LAST_YEAR}.`;

/**
 * Reads a datetime as clients send it (LENIENT_DATETIME_RULE); without an offset in `zone`.
 * Anything else is invalid, an unsupported year too; a local time in a DST gap is nonexistent
 * (luxon would move it an hour). The year checked is the one written, whatever the zone
 * (`2999-12-31T23:30-1200` is taken), so that a client reads the rule off the value it sends.
 */
export function parseDatetime(value: string, zone: string): ParsedDatetime {
  const m = LENIENT.exec(value.trim());
  if (!m) return { kind: 'invalid' };
  const [, year, month, day, hour, minute, second = '0', fraction = '', offset] = m;
  if (!isSupportedYear(Number(year))) return { kind: 'invalid' };
  const local = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second),
    millisecond: Number(fraction.slice(0, 3).padEnd(3, '0')),
  };
  // luxon reads 24:00 as the next day's midnight, which the check below would call a DST gap.
  if (local.hour > 23) return { kind: 'invalid' };
  const readIn = offset ? offsetZone(offset) : zone;
  if (!readIn) return { kind: 'invalid' };
  const moment = DateTime.fromObject(local, { zone: readIn });
  if (!moment.isValid) return { kind: 'invalid' };
  const same =
    moment.year === local.year &&
    moment.month === local.month &&
    moment.day === local.day &&
    moment.hour === local.hour &&
    moment.minute === local.minute;
  if (!same) return { kind: 'nonexistent' };
  // A wall time a fall-back day shows twice is read as its first occurrence (as RFC 5545 does).
  const [first] = moment.getPossibleOffsets().sort((a, b) => a.toMillis() - b.toMillis());
  return { kind: 'moment', moment: first ?? moment };
}

function offsetZone(offset: string): FixedOffsetZone | null {
  if (offset.toUpperCase() === 'Z') return FixedOffsetZone.utcInstance;
  const [, sign, hours, minutes = '00'] = /^([+-])(\d{2}):?(\d{2})?$/.exec(offset) ?? [];
  if (!sign || Number(hours) > 18 || Number(minutes) > 59) return null;
  const total = (Number(hours) * 60 + Number(minutes)) * (sign === '-' ? -1 : 1);
  return FixedOffsetZone.instance(total);
}

/** `March 3, 2026`: how appointments show their date. */
export function formatLongDate(moment: DateTime): string {
  const w = wallClock(moment);
  return `${MONTHS[w.getUTCMonth()]} ${w.getUTCDate()}, ${String(w.getUTCFullYear()).padStart(4, '0')}`;
}

/** `2:30pm`: how appointments show a time of day. */
export function formatClockTime(moment: DateTime): string {
  const w = wallClock(moment);
  const hour = w.getUTCHours();
  return `${hour % 12 || 12}:${pad2(w.getUTCMinutes())}${hour < 12 ? 'am' : 'pm'}`;
}
