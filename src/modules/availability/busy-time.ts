import type { EntityManager } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import { MINUTE } from '../../common/time/durations';
import { Appointment } from './appointment.entity';
import type { SlotRules } from './slot-engine';
import type { Span } from './working-time';

/** The longest an appointment lasts, addons included: a day. Booking refuses longer ones. */
export const MAX_APPOINTMENT_MINUTES = 1440;

/**
 * The longest time an appointment keeps its calendar busy: its length and both paddings (each at
 * most a day). It bounds the lower side of the appointments read for a range, so that the read uses
 * `idx_appointments_calendar_busy` on both sides and costs what the range holds, not the history.
 */
export const MAX_BUSY_SPAN_MINUTES = 3 * 1440;

/**
 * The longest span of external busy time stored (calendar-sync cuts longer events into days), so
 * that its read is bounded on both sides of `idx_external_busy_calendar`, as appointments' is.
 */
export const MAX_EXTERNAL_SPAN_MINUTES = 1440;

/** Busy time to read over `[from, until)`, leaving out some appointments (a reschedule's own). */
export interface BusyRequest extends Span {
  ignoreAppointmentIds: number[];
  /** The hold of the client who books with its token: its time is not busy for them. */
  ignoreHoldId?: number;
}

/** The appointments' subquery of BUSY_COLUMNS. */
const APPOINTMENTS_SUBQUERY = `(SELECT JSON_ARRAYAGG(JSON_ARRAY(a.busy_from, a.busy_until)) FROM appointments a
    WHERE a.calendar_id = c.id AND a.busy_from >= ? AND a.busy_from < ? AND a.busy_until > ?
      AND a.canceled = 0 AND a.id NOT IN (?))`;

/** The other kinds' subqueries of BUSY_COLUMNS, each with its column. */
const KIND_COLUMNS: { name: string; subquery: string }[] = [
  {
    name: 'blocks',
    subquery: `(SELECT JSON_ARRAYAGG(JSON_ARRAY(b.starts_at, b.ends_at)) FROM blocks b
    WHERE b.calendar_id = c.id AND b.ends_at > ? AND b.starts_at < ?)`,
  },
  {
    name: 'sessions',
    subquery: `(SELECT JSON_ARRAYAGG(JSON_ARRAY(s.starts_at, s.starts_at + INTERVAL st.duration MINUTE))
     FROM classes s JOIN appointment_types st ON st.id = s.appointment_type_id AND st.deleted_at IS NULL
    WHERE s.calendar_id = c.id AND s.starts_at >= ? AND s.starts_at < ?)`,
  },
  {
    name: 'holds',
    subquery: `(SELECT JSON_ARRAYAGG(JSON_ARRAY(h.busy_from, h.busy_until)) FROM slot_holds h
    WHERE h.calendar_id = c.id AND h.busy_from >= ? AND h.busy_from < ? AND h.busy_until > ?
      AND h.expires_at > ? AND h.class_id IS NULL AND h.id <> ?)`,
  },
  {
    name: 'external',
    subquery: `(SELECT JSON_ARRAYAGG(JSON_ARRAY(x.starts_at, x.ends_at)) FROM external_busy_spans x
    WHERE x.calendar_id = c.id AND x.starts_at >= ? AND x.starts_at < ? AND x.ends_at > ?)`,
  },
];

/**
 * The busy time of calendar `c`, as columns of any query over `calendars c`: JSON arrays of
 * `[from, until]`, each correlated on its own index. Non-canceled appointments (with their padding)
 * by (calendar_id, busy_from), bounded below by the longest busy span; blocks (which may be long: a
 * holiday) by (calendar_id, ends_at); sessions of live class types by (calendar_id, starts_at), a
 * class lasting at most a day and occupying its calendar for the type's duration. The parameters
 * are `busyParameters`'.
 *
 * Live slot holds of services (expiring after the `now` passed: the code's clock, as everywhere
 * stored times are compared) are busy as appointments are, on their own index; a class hold takes a
 * seat instead (readSeatsTaken). An expired hold is busy for nobody, swept or not.
 */
export const BUSY_COLUMNS = `,
  ${APPOINTMENTS_SUBQUERY} AS appointments${KIND_COLUMNS.map(
    (k) => `,\n  ${k.subquery} AS ${k.name}`,
  ).join('')}`;

/**
 * BUSY_COLUMNS' subqueries (same parameters, same order) as one column, `busy`: a JSON array of
 * their non-empty arrays. One column rather than five: each column of a result costs the client
 * its definition and its decoding on every run, empty or not (~45 µs of the five on an
 * /availability/times request).
 */
export const BUSY_LIST_COLUMN = `,
  CONCAT('[', CONCAT_WS(',', ${[APPOINTMENTS_SUBQUERY, ...KIND_COLUMNS.map((k) => k.subquery)].join(',\n    ')}), ']') AS busy`;

type SpanList = string | [string, string][] | null;

/** The columns BUSY_COLUMNS adds to a row. */
export interface BusyColumns {
  appointments: SpanList;
  blocks: SpanList;
  sessions: SpanList;
  holds: SpanList;
  external: SpanList;
}

/** The column BUSY_LIST_COLUMN adds to a row. */
export interface BusyListColumn {
  busy: string | [string, string][][] | null;
}

export function busyParameters(busy: BusyRequest, now = Date.now()): unknown[] {
  const from = new Date(busy.from);
  const until = new Date(busy.until);
  const lowest = new Date(busy.from - MAX_BUSY_SPAN_MINUTES * MINUTE);
  return [
    lowest,
    until,
    from,
    // A single id travels as a scalar: a statement without a list skips expandLists' rewrite of
    // its text (and mysql2 finds its prepared statement by the same string object each time).
    busy.ignoreAppointmentIds.length > 1
      ? busy.ignoreAppointmentIds
      : (busy.ignoreAppointmentIds[0] ?? 0),
    from,
    until,
    new Date(busy.from - MAX_APPOINTMENT_MINUTES * MINUTE),
    until,
    lowest,
    until,
    from,
    new Date(now),
    busy.ignoreHoldId ?? 0,
    new Date(busy.from - MAX_EXTERNAL_SPAN_MINUTES * MINUTE),
    until,
    from,
  ];
}

/** A row's busy columns as spans (any order, may overlap). */
export function busySpansOf(row: Partial<BusyColumns>): Span[] {
  return [
    ...spans(row.appointments),
    ...spans(row.blocks),
    ...spans(row.sessions),
    ...spans(row.holds),
    ...spans(row.external),
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

/** The busy time that decides whether an appointment of these rules can start at `start`. */
export function busyWindow(rules: SlotRules, start: number): Span {
  return {
    from: start - rules.paddingBefore * MINUTE,
    until: start + (rules.duration + rules.paddingAfter) * MINUTE,
  };
}

/** What keeps each calendar busy during `window` (see BUSY_COLUMNS). */
export async function readBusyTime(
  manager: EntityManager,
  calendarIds: number[],
  window: Span,
  ignoreAppointmentIds: number[] = [],
  ignoreHoldId?: number,
): Promise<Map<number, Span[]>> {
  const busy = new Map<number, Span[]>(calendarIds.map((id) => [id, []]));
  if (calendarIds.length === 0 || window.from >= window.until) return busy;
  const rows = await queryPrepared<(BusyColumns & { id: number })[]>(
    manager,
    `SELECT c.id ${BUSY_COLUMNS} FROM calendars c WHERE c.id IN (?)`,
    [...busyParameters({ ...window, ignoreAppointmentIds, ignoreHoldId }), calendarIds],
  );
  for (const row of rows) busy.set(Number(row.id), busySpansOf(row));
  return busy;
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
 * MySQL writes microseconds in JSON, MariaDB milliseconds: read to the millisecond. By the digits'
 * fixed places rather than Date.parse of a rebuilt string: two per busy span read, it was the
 * largest of /availability's own costs (a tenth of the profile at 10,000 appointments).
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

/**
 * Seats taken in each session by non-canceled appointments (minus `ignoreAppointmentIds`) and by live
 * holds (minus `ignoreHoldId`, the booking client's own).
 */
export async function readSeatsTaken(
  manager: EntityManager,
  sessionIds: number[],
  ignoreAppointmentIds: number[] = [],
  ignoreHoldId?: number,
): Promise<Map<number, number>> {
  const taken = new Map<number, number>(sessionIds.map((id) => [id, 0]));
  if (sessionIds.length === 0) return taken;
  const query = manager
    .createQueryBuilder(Appointment, 'a')
    .select('a.classId', 'classId')
    .addSelect('COUNT(*)', 'taken')
    .where('a.classId IN (:...sessionIds) AND a.canceled = 0', { sessionIds })
    .groupBy('a.classId');
  if (ignoreAppointmentIds.length > 0)
    query.andWhere('a.id NOT IN (:...ignoreAppointmentIds)', { ignoreAppointmentIds });
  for (const row of await query.getRawMany<{ classId: number; taken: string | number }>())
    taken.set(Number(row.classId), Number(row.taken));
  const held = await queryPrepared<{ classId: number; held: string | number }[]>(
    manager,
    `SELECT class_id AS classId, COUNT(*) AS held FROM slot_holds
      WHERE class_id IN (?) AND expires_at > ? AND id <> ? GROUP BY class_id`,
    [sessionIds, new Date(), ignoreHoldId ?? 0],
  );
  for (const row of held)
    taken.set(Number(row.classId), (taken.get(Number(row.classId)) ?? 0) + Number(row.held));
  return taken;
}
