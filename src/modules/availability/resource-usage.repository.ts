import type { EntityManager } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import { DAY, MINUTE } from '../../common/time/durations';
import {
  type BusyColumns,
  type BusyRequest,
  MAX_BUSY_SPAN_MINUTES,
  busySpansOf,
} from './busy-time';
import { readBusyTime } from './busy-time.repository';
import { type ResourceUse, resourceBusy, withExtraBusy } from './resource-usage';
import type { SlotContext } from './slot-context';
import type { Span } from './working-time';

/** A row of RESOURCE_USES_SQL: the resource, and its uses by kind (BusyColumns' lists). */
type UsesRow = Pick<BusyColumns, 'appointments' | 'holds' | 'sessions'> & {
  id: number;
  name: string;
  quantity: number;
};

/*
 * What uses a resource's units (docs/resources.md): the non-canceled appointments, the live holds
 * and the class sessions of every type linked to it, each for its whole span, padding included.
 * Read from those rows themselves, so no ledger has to follow each booking, move, cancel, hold and
 * session. A class's seats take no unit: its session took one when it was put on the calendar.
 */

/** The types that need resource `r`: any of their appointments, holds and sessions use it. */
const TYPES_OF_R =
  'SELECT u.appointment_type_id FROM appointment_type_resources u WHERE u.resource_id = r.id';

/**
 * Each kind of use of resource `r` overlapping the window: FROM and WHERE, and its span. Each is
 * read by the types that share a resource with the type asked about (its `resource_peers`, a
 * constant list: an index range on (type, start) per type over the window), then kept when of a
 * type that needs `r`. Joined from the links instead, the types' index would be read by type
 * only, over each type's whole history. Never by `class_id IS NULL`, which the planner may take
 * for a narrow index lookup when it is every service's row.
 */
const USE_KINDS = [
  {
    name: 'appointments',
    span: 'a.busy_from, a.busy_until',
    from: `FROM appointments a IGNORE INDEX (idx_appointments_class)
      WHERE a.account_id = ? AND a.appointment_type_id IN (?) AND a.starts_at >= ? AND a.starts_at < ?
        AND a.busy_from < ? AND a.busy_until > ?
        AND a.canceled = 0 AND a.class_id IS NULL AND a.id NOT IN (?)
        AND a.appointment_type_id IN (${TYPES_OF_R})`,
  },
  {
    name: 'holds',
    span: 'h.busy_from, h.busy_until',
    from: `FROM slot_holds h IGNORE INDEX (idx_slot_holds_class)
      WHERE h.account_id = ? AND h.appointment_type_id IN (?) AND h.starts_at >= ? AND h.starts_at < ?
        AND h.busy_from < ? AND h.busy_until > ?
        AND h.expires_at > ? AND h.class_id IS NULL AND h.id <> ?
        AND h.appointment_type_id IN (${TYPES_OF_R})`,
  },
  {
    name: 'sessions',
    span: `s.starts_at - INTERVAL st.padding_before MINUTE,
           s.starts_at + INTERVAL (st.duration + st.padding_after) MINUTE`,
    from: `FROM classes s
       JOIN appointment_types st ON st.id = s.appointment_type_id AND st.deleted_at IS NULL
      WHERE s.account_id = ? AND s.appointment_type_id IN (?) AND s.starts_at >= ? AND s.starts_at < ?
        AND s.starts_at - INTERVAL st.padding_before MINUTE < ?
        AND s.starts_at + INTERVAL (st.duration + st.padding_after) MINUTE > ?
        AND s.appointment_type_id IN (${TYPES_OF_R})`,
  },
];

/** Each kind's uses of resource `r`, as a JSON array of `[from, until]` (null: none). */
const USE_COLUMNS = USE_KINDS.map(
  (k) => `(SELECT JSON_ARRAYAGG(JSON_ARRAY(${k.span})) ${k.from}) AS ${k.name}`,
).join(',\n  ');

/** Each live resource of a type, with its quantity and its uses around a window. */
const RESOURCE_USES_SQL = `SELECT r.id, r.name, r.quantity,
  ${USE_COLUMNS}
  FROM appointment_type_resources x
  JOIN resources r ON r.id = x.resource_id AND r.deleted_at IS NULL
 WHERE x.appointment_type_id = ? AND r.account_id = ?`;

/**
 * Locks, for each live resource of a type, the UTC days (`resource_days`) a span touches, writing
 * the rows it lacks: INSERT … ON DUPLICATE KEY UPDATE takes an exclusive lock on each row, new or
 * not, in the order of the SELECT (resource, then day, ascending). Every booking locks its
 * calendars first, then these: one global order, so two bookings never wait on each other in a
 * cycle. Every writer of a use of a resource holds the rows of the days its span touches, and the
 * uses a booking reads overlap its own span, so touch one of its days: whoever holds those rows is
 * the only one checking and writing uses that could meet the booking's. Bookings of one resource on
 * days apart do not wait on each other.
 */
const LOCK_DAYS_SQL = `INSERT INTO resource_days (account_id, resource_id, day)
SELECT r.account_id, r.id, d.day
  FROM appointment_type_resources x
  JOIN resources r ON r.id = x.resource_id AND r.deleted_at IS NULL
  JOIN JSON_TABLE(?, '$[*]' COLUMNS (day DATE PATH '$')) d
 WHERE x.appointment_type_id = ? AND r.account_id = ?
 ORDER BY r.id, d.day
ON DUPLICATE KEY UPDATE day = VALUES(day)`;

/** The type's resources with their uses over `request` (but the appointments and hold ignored). */
export async function readResourceUses(
  manager: EntityManager,
  accountId: number,
  typeId: number,
  /** The types sharing a resource with it (SlotType.resourcePeers). */
  peers: readonly number[],
  request: BusyRequest,
  now = Date.now(),
): Promise<(ResourceUse & { id: number; name: string })[]> {
  const from = new Date(request.from);
  const until = new Date(request.until);
  // A use starts at most a day after its padded span does, and lasts at most its longest span.
  const lowest = new Date(request.from - MAX_BUSY_SPAN_MINUTES * MINUTE);
  const highest = new Date(request.until + 1440 * MINUTE);
  const ignored = request.ignoreAppointmentIds;
  const near = [
    accountId,
    peers.length > 1 ? peers : (peers[0] ?? 0),
    lowest,
    highest,
    until,
    from,
  ];
  const rows = await queryPrepared<UsesRow[]>(manager, RESOURCE_USES_SQL, [
    ...[...near, ignored.length > 1 ? ignored : (ignored[0] ?? 0)],
    ...[...near, new Date(now), request.ignoreHoldId ?? 0],
    ...near,
    typeId,
    accountId,
  ]);
  return rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    quantity: Number(row.quantity),
    uses: busySpansOf(row),
    held: row.holds !== null,
  }));
}

/**
 * `busy` (each calendar's) with the time the context's type finds a resource it needs full, when
 * it needs any (SlotType.usesResources): what a calendar cannot offer it although free itself.
 * Sets `ctx.resourcesHeld` when a live hold uses one (the answer may change at its expiry).
 */
export async function withResourceBusy(
  manager: EntityManager,
  ctx: Pick<SlotContext, 'type' | 'resourcesHeld' | 'resources'>,
  busy: Map<number, Span[]>,
  request: BusyRequest,
  now = Date.now(),
): Promise<Map<number, Span[]>> {
  if (!needsResources(ctx.type)) return busy;
  const { accountId, id, resourcePeers } = ctx.type;
  const peers = resourcePeers ?? [id];
  const uses = await readResourceUses(manager, accountId, id, peers, request, now);
  if (uses.some((u) => u.held)) ctx.resourcesHeld = true;
  ctx.resources = uses.map(({ id, name }) => ({ id, name })).sort((a, b) => a.id - b.id);
  return withExtraBusy(busy, resourceBusy(uses));
}

/**
 * Whether a booking of the type takes resource units itself: a service that lists some. A class's
 * seat takes none (its session holds the unit), so neither is locked nor read for it.
 */
function needsResources(type: Pick<SlotContext['type'], 'usesResources' | 'kind'>): boolean {
  return type.usesResources && type.kind === 'service';
}

/** Locks the type's resources for the days `span` touches (see LOCK_DAYS_SQL); none: nothing. */
export async function lockResources(
  tx: EntityManager,
  ctx: Pick<SlotContext, 'type'>,
  span: Span,
): Promise<void> {
  if (!needsResources(ctx.type)) return;
  const days: string[] = [];
  for (let day = Math.floor(span.from / DAY); day * DAY < span.until; day++)
    days.push(new Date(day * DAY).toISOString().slice(0, 10));
  await queryPrepared(tx, LOCK_DAYS_SQL, [JSON.stringify(days), ctx.type.id, ctx.type.accountId]);
}

/** The calendars' busy time and the type's resources' over `request` (but what it ignores). */
export async function readSlotBusy(
  manager: EntityManager,
  ctx: Pick<SlotContext, 'type' | 'resourcesHeld' | 'resources'>,
  calendarIds: number[],
  request: BusyRequest,
): Promise<Map<number, Span[]>> {
  const { ignoreAppointmentIds, ignoreHoldId } = request;
  const busy = await readBusyTime(
    manager,
    calendarIds,
    request,
    ignoreAppointmentIds,
    ignoreHoldId,
  );
  return withResourceBusy(manager, ctx, busy, request);
}

/** A move's busy time under its calendars' locks: its type's resource days locked, then read. */
export async function readLockedBusy(
  tx: EntityManager,
  ctx: Pick<SlotContext, 'type'>,
  calendarIds: number[],
  request: BusyRequest,
): Promise<Map<number, Span[]>> {
  await lockResources(tx, ctx, request);
  return readSlotBusy(tx, ctx, calendarIds, request);
}
