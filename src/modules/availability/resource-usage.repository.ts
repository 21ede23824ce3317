import type { EntityManager } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import { MINUTE } from '../../common/time/durations';
import {
  type BusyListColumn,
  type BusyRequest,
  MAX_BUSY_SPAN_MINUTES,
  busyListSpansOf,
} from './busy-time';
import { readBusyTime } from './busy-time.repository';
import { type ResourceUse, resourceBusy, withExtraBusy } from './resource-usage';
import type { SlotContext } from './slot-context';
import type { Span } from './working-time';

/*
 * What uses a resource's units (docs/resources.md): the non-canceled appointments, the live holds
 * and the class sessions of every type linked to it, each for its whole span, padding included.
 * Read from those rows themselves, so no ledger has to follow each booking, move, cancel, hold and
 * session. A class's seats take no unit: its session took one when it was put on the calendar.
 */

/** The uses of one resource, as BUSY_LIST_COLUMN's `busy` (a JSON array of span lists). */
const USES_COLUMN = `CONCAT('[', CONCAT_WS(',',
    (SELECT JSON_ARRAYAGG(JSON_ARRAY(a.busy_from, a.busy_until))
       FROM appointment_type_resources ua
       JOIN appointments a ON a.appointment_type_id = ua.appointment_type_id
      WHERE ua.resource_id = r.id AND a.account_id = r.account_id
        AND a.starts_at >= ? AND a.starts_at < ? AND a.busy_from < ? AND a.busy_until > ?
        AND a.canceled = 0 AND a.class_id IS NULL AND a.id NOT IN (?)),
    (SELECT JSON_ARRAYAGG(JSON_ARRAY(h.busy_from, h.busy_until))
       FROM appointment_type_resources uh
       JOIN slot_holds h ON h.appointment_type_id = uh.appointment_type_id
      WHERE uh.resource_id = r.id AND h.account_id = r.account_id
        AND h.starts_at >= ? AND h.starts_at < ? AND h.busy_from < ? AND h.busy_until > ?
        AND h.expires_at > ? AND h.class_id IS NULL AND h.id <> ?),
    (SELECT JSON_ARRAYAGG(JSON_ARRAY(s.starts_at - INTERVAL st.padding_before MINUTE,
                                     s.starts_at + INTERVAL (st.duration + st.padding_after) MINUTE))
       FROM appointment_type_resources us
       JOIN classes s ON s.appointment_type_id = us.appointment_type_id
       JOIN appointment_types st ON st.id = s.appointment_type_id AND st.deleted_at IS NULL
      WHERE us.resource_id = r.id AND s.account_id = r.account_id
        AND s.starts_at >= ? AND s.starts_at < ?)), ']') AS busy`;

/** Whether a live hold uses the resource (`h.id <> ?`: not the booking client's own). */
const HELD_COLUMN = `EXISTS (SELECT 1 FROM appointment_type_resources uk
    JOIN slot_holds k ON k.appointment_type_id = uk.appointment_type_id
   WHERE uk.resource_id = r.id AND k.account_id = r.account_id AND k.expires_at > ?
     AND k.class_id IS NULL AND k.id <> ?) AS held`;

/** Each live resource of a type, with its quantity and its uses around a window. */
const RESOURCE_USES_SQL = `SELECT r.id, r.quantity, ${USES_COLUMN}, ${HELD_COLUMN}
  FROM appointment_type_resources x
  JOIN resources r ON r.id = x.resource_id AND r.deleted_at IS NULL
 WHERE x.appointment_type_id = ? AND r.account_id = ?`;

/**
 * Locks the live resources of a type FOR UPDATE, in ascending id order (the link's primary key
 * lists them so): after the calendars, which every booking locks first, so that the one global
 * order is calendars then resources and two bookings never wait on each other in a cycle.
 */
const LOCK_RESOURCES_SQL = `SELECT r.id FROM resources r
 WHERE r.account_id = ? AND r.deleted_at IS NULL
   AND r.id IN (SELECT x.resource_id FROM appointment_type_resources x WHERE x.appointment_type_id = ?)
 ORDER BY r.id FOR UPDATE`;

/** The type's resources with their uses over `request` (but the appointments and hold ignored). */
export async function readResourceUses(
  manager: EntityManager,
  accountId: number,
  typeId: number,
  request: BusyRequest,
  now = Date.now(),
): Promise<ResourceUse[]> {
  const from = new Date(request.from);
  const until = new Date(request.until);
  // A use starts at most a day after its padded span does, and lasts at most its longest span.
  const lowest = new Date(request.from - MAX_BUSY_SPAN_MINUTES * MINUTE);
  const highest = new Date(request.until + 1440 * MINUTE);
  const ignored = request.ignoreAppointmentIds;
  const rows = await queryPrepared<(BusyListColumn & { quantity: number; held: number })[]>(
    manager,
    RESOURCE_USES_SQL,
    [
      lowest,
      highest,
      until,
      from,
      ignored.length > 1 ? ignored : (ignored[0] ?? 0),
      lowest,
      highest,
      until,
      from,
      new Date(now),
      request.ignoreHoldId ?? 0,
      lowest,
      highest,
      new Date(now),
      request.ignoreHoldId ?? 0,
      typeId,
      accountId,
    ],
  );
  return rows.map((row) => ({
    quantity: Number(row.quantity),
    uses: busyListSpansOf(row),
    held: Boolean(Number(row.held)),
  }));
}

/**
 * `busy` (each calendar's) with the time the context's type finds a resource it needs full, when
 * it needs any (SlotType.usesResources): what a calendar cannot offer it although free itself.
 * Sets `ctx.resourcesHeld` when a live hold uses one (the answer may change at its expiry).
 */
export async function withResourceBusy(
  manager: EntityManager,
  ctx: Pick<SlotContext, 'type' | 'resourcesHeld'>,
  busy: Map<number, Span[]>,
  request: BusyRequest,
  now = Date.now(),
): Promise<Map<number, Span[]>> {
  if (!ctx.type.usesResources || ctx.type.kind === 'class') return busy;
  const uses = await readResourceUses(manager, ctx.type.accountId, ctx.type.id, request, now);
  if (uses.some((u) => u.held)) ctx.resourcesHeld = true;
  return withExtraBusy(busy, resourceBusy(uses));
}

/** Locks the type's resources (see LOCK_RESOURCES_SQL); nothing when it needs none. */
export async function lockResources(
  tx: EntityManager,
  ctx: Pick<SlotContext, 'type'>,
): Promise<void> {
  if (!ctx.type.usesResources || ctx.type.kind === 'class') return;
  await queryPrepared(tx, LOCK_RESOURCES_SQL, [ctx.type.accountId, ctx.type.id]);
}

/** The calendars' busy time and the type's resources' over `request` (but what it ignores). */
export async function readSlotBusy(
  manager: EntityManager,
  ctx: Pick<SlotContext, 'type' | 'resourcesHeld'>,
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

/** A move's busy time under its calendars' locks: its type's resources locked first (see above). */
export async function readLockedBusy(
  tx: EntityManager,
  ctx: Pick<SlotContext, 'type'>,
  calendarIds: number[],
  request: BusyRequest,
): Promise<Map<number, Span[]>> {
  await lockResources(tx, ctx);
  return readSlotBusy(tx, ctx, calendarIds, request);
}
