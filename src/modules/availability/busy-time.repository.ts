import { TypeOrmModule } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import { MINUTE } from '../../common/time/durations';
import { ALL_BUSY_KINDS, BusyKind } from '../catalog';
import { Appointment } from './appointment.entity';
import { Block } from './block.entity';
import {
  type BusyColumns,
  type BusyRequest,
  MAX_APPOINTMENT_MINUTES,
  MAX_BUSY_SPAN_MINUTES,
  MAX_EXTERNAL_SPAN_MINUTES,
  busySpansOf,
} from './busy-time';
import { SlotHold } from './slot-hold.entity';
import type { Span } from './working-time';

/** The module's entities: appointments, blocks and slot holds, the busy time it owns. */
export const busyTimeTables = TypeOrmModule.forFeature([Appointment, Block, SlotHold]);

/** The appointments' subquery of BUSY_COLUMNS. */
const APPOINTMENTS_SUBQUERY = `(SELECT JSON_ARRAYAGG(JSON_ARRAY(a.busy_from, a.busy_until)) FROM appointments a
    WHERE a.calendar_id = c.id AND a.busy_from >= ? AND a.busy_from < ? AND a.busy_until > ?
      AND a.canceled = 0 AND a.id NOT IN (?))`;

/** How many of busyParameters' values the appointments' subquery takes (the first ones). */
const APPOINTMENT_PARAMETERS = 4;

/**
 * The other kinds' subqueries of BUSY_COLUMNS, each with its column, its bit and its values;
 * `gated`: BUSY_LIST_COLUMN runs it only where the row's bit is set (see listed).
 */
const KIND_COLUMNS: {
  kind: BusyKind;
  name: string;
  parameters: number;
  subquery: string;
  gated?: boolean;
}[] = [
  {
    kind: BusyKind.blocks,
    name: 'blocks',
    parameters: 2,
    subquery: `(SELECT JSON_ARRAYAGG(JSON_ARRAY(b.starts_at, b.ends_at)) FROM blocks b
    WHERE b.calendar_id = c.id AND b.ends_at > ? AND b.starts_at < ?)`,
  },
  {
    kind: BusyKind.sessions,
    name: 'sessions',
    parameters: 2,
    subquery: `(SELECT JSON_ARRAYAGG(JSON_ARRAY(s.starts_at, s.starts_at + INTERVAL st.duration MINUTE))
     FROM classes s JOIN appointment_types st ON st.id = s.appointment_type_id AND st.deleted_at IS NULL
    WHERE s.calendar_id = c.id AND s.starts_at >= ? AND s.starts_at < ?)`,
  },
  {
    kind: BusyKind.holds,
    name: 'holds',
    parameters: 5,
    subquery: `(SELECT JSON_ARRAYAGG(JSON_ARRAY(h.busy_from, h.busy_until)) FROM slot_holds h
    WHERE h.calendar_id = c.id AND h.busy_from >= ? AND h.busy_from < ? AND h.busy_until > ?
      AND h.expires_at > ? AND h.class_id IS NULL AND h.id <> ?)`,
  },
  {
    kind: BusyKind.external,
    name: 'external',
    parameters: 3,
    subquery: `(SELECT JSON_ARRAYAGG(JSON_ARRAY(x.starts_at, x.ends_at)) FROM external_busy_spans x
    WHERE x.calendar_id = c.id AND x.starts_at >= ? AND x.starts_at < ? AND x.ends_at > ?)`,
  },
  {
    kind: BusyKind.members,
    name: 'members',
    parameters: 4,
    gated: true,
    subquery: `(SELECT JSON_ARRAYAGG(JSON_ARRAY(m.busy_from, m.busy_until)) FROM appointment_members m
     JOIN appointments ma ON ma.id = m.appointment_id AND ma.canceled = 0
    WHERE m.calendar_id = c.id AND m.busy_from >= ? AND m.busy_from < ? AND m.busy_until > ?
      AND m.appointment_id NOT IN (?))`,
  },
  {
    kind: BusyKind.heldMembers,
    name: 'heldMembers',
    parameters: 5,
    gated: true,
    subquery: `(SELECT JSON_ARRAYAGG(JSON_ARRAY(hm.busy_from, hm.busy_until)) FROM slot_hold_members hm
     JOIN slot_holds mh ON mh.id = hm.hold_id AND mh.expires_at > ?
    WHERE hm.calendar_id = c.id AND hm.busy_from >= ? AND hm.busy_from < ? AND hm.busy_until > ?
      AND hm.hold_id <> ?)`,
  },
];

/**
 * The busy time of calendar `c`, as columns of any query over `calendars c` (parameters:
 * `busyParameters`'): JSON arrays of `[from, until]`, each on its own index. Non-canceled
 * appointments (with padding) by (calendar_id, busy_from), bounded below by the longest busy span;
 * blocks (a holiday may be long) by (calendar_id, ends_at); sessions of live class types by
 * (calendar_id, starts_at), a class lasting at most a day and taking its type's duration. Live slot
 * holds of services (expiring after the `now` passed: the code's clock, as everywhere) are busy as
 * appointments are; a class hold takes a seat instead (readSeatsTaken). An expired hold is busy for
 * nobody, swept or not.
 */
export const BUSY_COLUMNS = busyColumnsOf(ALL_BUSY_KINDS);

/** BUSY_COLUMNS with the appointments and only the kinds of `kinds` (BusyKind bits). */
export function busyColumnsOf(kinds: number): string {
  return `,
  ${APPOINTMENTS_SUBQUERY} AS appointments${KIND_COLUMNS.filter((k) => kinds & k.kind)
    .map((k) => `,\n  ${k.subquery} AS ${k.name}`)
    .join('')}`;
}

/** busyParameters' values for `busyColumnsOf(kinds)`. */
export function busyKindParameters(kinds: number, parameters: unknown[]): unknown[] {
  const taken = parameters.slice(0, APPOINTMENT_PARAMETERS);
  let at = APPOINTMENT_PARAMETERS;
  for (const k of KIND_COLUMNS) {
    if (kinds & k.kind) taken.push(...parameters.slice(at, at + k.parameters));
    at += k.parameters;
  }
  return taken;
}

/**
 * BUSY_COLUMNS' subqueries (same parameters, same order) as one column, `busy`: a JSON array of
 * their non-empty arrays. Each column of a result costs the client its definition and decoding on
 * every run, empty or not (~45 µs of five on an /availability/times request).
 */
export const BUSY_LIST_COLUMN = `,
  CONCAT('[', CONCAT_WS(',', ${[APPOINTMENTS_SUBQUERY, ...KIND_COLUMNS.map(listed)].join(',\n    ')}), ']') AS busy`;

/**
 * A kind's subquery in BUSY_LIST_COLUMN; a gated one (a collective's members) only where the row's
 * bit says the calendar ever had one (IF evaluates only the branch taken; the row and the
 * subqueries are read by one statement), so the many calendars that never do pay nothing for it.
 */
function listed(k: (typeof KIND_COLUMNS)[number]): string {
  return k.gated ? `IF(c.busy_kinds & ${k.kind}, ${k.subquery}, NULL)` : k.subquery;
}

export function busyParameters(busy: BusyRequest, now = Date.now()): unknown[] {
  const from = new Date(busy.from);
  const until = new Date(busy.until);
  const lowest = new Date(busy.from - MAX_BUSY_SPAN_MINUTES * MINUTE);
  // A single id travels as a scalar: a statement without a list skips expandLists' rewrite of
  // its text (and mysql2 finds its prepared statement by the same string object each time).
  const ignored =
    busy.ignoreAppointmentIds.length > 1
      ? busy.ignoreAppointmentIds
      : (busy.ignoreAppointmentIds[0] ?? 0);
  return [
    lowest,
    until,
    from,
    ignored,
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
    // A collective appointment's other calendars, then a collective hold's.
    lowest,
    until,
    from,
    ignored,
    new Date(now),
    lowest,
    until,
    from,
    busy.ignoreHoldId ?? 0,
  ];
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

/** Seats taken in each session by non-canceled appointments and live holds (but those ignored). */
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
