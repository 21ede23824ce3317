import { MINUTE } from '../../common/time/durations';
import type { SlotRules } from './slot-engine';
import type { Span } from './working-time';

/** The longest an appointment lasts, addons included: a day. Booking refuses longer ones. */
export const MAX_APPOINTMENT_MINUTES = 1440;

/**
 * The longest an appointment keeps its calendar busy: its length and both paddings (each at most a
 * day). It bounds below the appointments read for a range, so the read uses
 * `idx_appointments_calendar_busy` on both sides and costs what the range holds, not the history.
 */
export const MAX_BUSY_SPAN_MINUTES = 3 * 1440;

/** The longest external busy span stored (calendar-sync cuts longer events): reads are bounded. */
export const MAX_EXTERNAL_SPAN_MINUTES = 1440;

/** Busy time to read over `[from, until)`, leaving out some appointments (a reschedule's own). */
export interface BusyRequest extends Span {
  ignoreAppointmentIds: number[];
  /** The hold of the client who books with its token: its time is not busy for them. */
  ignoreHoldId?: number;
}

type SpanList = string | [string, string][] | null;

/** The columns BUSY_COLUMNS adds to a row. */
export interface BusyColumns {
  appointments: SpanList;
  blocks: SpanList;
  sessions: SpanList;
  holds: SpanList;
  external: SpanList;
  members: SpanList;
  heldMembers: SpanList;
}

/** The column BUSY_LIST_COLUMN adds to a row. */
export interface BusyListColumn {
  busy: string | [string, string][][] | null;
}

/** A row's busy columns as spans (any order, may overlap). */
export function busySpansOf(row: Partial<BusyColumns>): Span[] {
  return [
    ...spans(row.appointments),
    ...spans(row.blocks),
    ...spans(row.sessions),
    ...spans(row.holds),
    ...spans(row.external),
    ...spans(row.members),
    ...spans(row.heldMembers),
  ];
}

/** A row's BUSY_LIST_COLUMN as spans (any order, may overlap). */
export function busyListSpansOf(row: Partial<BusyListColumn>): Span[] {
  const lists = row.busy === null || row.busy === undefined ? [] : json(row.busy);
  const out: Span[] = [];
  for (const pairs of lists)
    for (const [from, until] of pairs) out.push({ from: utcMillis(from), until: utcMillis(until) });
  return out;
}

/** The busy time that decides the starts in `window` of an appointment of these rules. */
export function busyAround(rules: SlotRules, window: Span): Span {
  return {
    from: window.from - rules.paddingBefore * MINUTE,
    until: window.until + (rules.duration + rules.paddingAfter) * MINUTE,
  };
}

/** The busy time that decides whether an appointment of these rules can start at `start`. */
export function busyWindow(rules: SlotRules, start: number): Span {
  return busyAround(rules, { from: start, until: start });
}

/** `[[from, until], …]` of UTC datetimes (`2031-01-01 09:00:00.000`) as spans. */
function spans(value: SpanList | undefined): Span[] {
  if (value === null || value === undefined) return [];
  const pairs = json<[string, string][]>(value);
  const out: Span[] = new Array<Span>(pairs.length);
  for (let i = 0; i < pairs.length; i++)
    out[i] = { from: utcMillis(pairs[i][0]), until: utcMillis(pairs[i][1]) };
  return out;
}

/**
 * MySQL writes microseconds in JSON, MariaDB milliseconds: read to the millisecond by the digits'
 * places (Date.parse, twice per span, was /availability's largest cost).
 */
export function utcMillis(datetime: string): number {
  if (datetime.length < 19 || datetime.charCodeAt(10) !== 32) return parsedMillis(datetime);
  const ms =
    datetime.length >= 23 && datetime.charCodeAt(19) === 46
      ? digits(datetime, 20, 23)
      : datetime.length === 19
        ? 0
        : NaN;
  const millis = Date.UTC(
    digits(datetime, 0, 4),
    digits(datetime, 5, 7) - 1,
    digits(datetime, 8, 10),
    digits(datetime, 11, 13),
    digits(datetime, 14, 16),
    digits(datetime, 17, 19),
    ms,
  );
  // Anything not in the expected shape (NaN somewhere) is read the general way.
  return Number.isNaN(millis) ? parsedMillis(datetime) : millis;
}

/** The number written by the ASCII digits of `text` in `[from, until)`, NaN if any is not one. */
function digits(text: string, from: number, until: number): number {
  let n = 0;
  for (let i = from; i < until; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    n = n * 10 + d;
  }
  return n;
}

function parsedMillis(datetime: string): number {
  const [date, time] = datetime.split(' ');
  return Date.parse(`${date}T${time.slice(0, 12)}Z`);
}

/** MySQL hands JSON columns over parsed; MariaDB (where JSON is LONGTEXT) as text. */
export function json<T>(value: string | T | null): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
