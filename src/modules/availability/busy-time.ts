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
  (SELECT JSON_ARRAYAGG(JSON_ARRAY(a.busy_from, a.busy_until)) FROM appointments a
    WHERE a.calendar_id = c.id AND a.busy_from >= ? AND a.busy_from < ? AND a.busy_until > ?
      AND a.canceled = 0 AND a.id NOT IN (?)) AS appointments,
  (SELECT JSON_ARRAYAGG(JSON_ARRAY(b.starts_at, b.ends_at)) FROM blocks b
    WHERE b.calendar_id = c.id AND b.ends_at > ? AND b.starts_at < ?) AS blocks,
  (SELECT JSON_ARRAYAGG(JSON_ARRAY(s.starts_at, s.starts_at + INTERVAL st.duration MINUTE))
     FROM classes s JOIN appointment_types st ON st.id = s.appointment_type_id AND st.deleted_at IS NULL
    WHERE s.calendar_id = c.id AND s.starts_at >= ? AND s.starts_at < ?) AS sessions,
  (SELECT JSON_ARRAYAGG(JSON_ARRAY(h.busy_from, h.busy_until)) FROM slot_holds h
    WHERE h.calendar_id = c.id AND h.busy_from >= ? AND h.busy_from < ? AND h.busy_until > ?
      AND h.expires_at > ? AND h.class_id IS NULL AND h.id <> ?) AS holds,
  (SELECT JSON_ARRAYAGG(JSON_ARRAY(x.starts_at, x.ends_at)) FROM external_busy_spans x
    WHERE x.calendar_id = c.id AND x.starts_at >= ? AND x.starts_at < ? AND x.ends_at > ?)
    AS external`;

type SpanList = string | [string, string][] | null;

/** The columns BUSY_COLUMNS adds to a row. */
export interface BusyColumns {
  appointments: SpanList;
  blocks: SpanList;
  sessions: SpanList;
  holds: SpanList;
  external: SpanList;
}

export function busyParameters(busy: BusyRequest, now = Date.now()): unknown[] {
  const from = new Date(busy.from);
  const until = new Date(busy.until);
  const lowest = new Date(busy.from - MAX_BUSY_SPAN_MINUTES * MINUTE);
  return [
    lowest,
    until,
    from,
    busy.ignoreAppointmentIds.length > 0 ? busy.ignoreAppointmentIds : [0],
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
  return json<[string, string][]>(value).map(([from, until]) => ({
    from: utcMillis(from),
    until: utcMillis(until),
  }));
}

/** MySQL writes microseconds in JSON, MariaDB milliseconds: read to the millisecond. */
function utcMillis(datetime: string): number {
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
