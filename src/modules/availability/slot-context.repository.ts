import type { EntityManager } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import { findReferenced } from '../../common/database/tenant-rows';
import type { Account } from '../accounts';
import { Addon, InvalidAddonError } from '../catalog';
import { AddonNotOfferedError } from './availability.errors';
import { BUSY_LIST_COLUMN, busyParameters } from './busy-time.repository';
import type { BusyRequest } from './busy-time';
import {
  type ContextRow,
  type SlotContext,
  type SlotRequest,
  type SlotType,
  rowsContextOf,
  slotContextOf,
} from './slot-context';

const TYPE_COLUMNS = `t.id, t.account_id AS accountId, t.name, t.category, t.active, t.kind, t.duration,
  t.class_size AS classSize, t.padding_before AS paddingBefore, t.padding_after AS paddingAfter,
  t.slot_interval AS slotInterval, t.min_hours_in_advance AS minHoursInAdvance,
  t.max_days_in_advance AS maxDaysInAdvance, t.price_cents AS priceCents, t.deleted_at AS deletedAt,
  t.max_per_day AS maxPerDay, t.max_per_week AS maxPerWeek,
  EXISTS (SELECT 1 FROM appointment_type_forms f WHERE f.appointment_type_id = t.id) AS hasForms`;
export const CALENDAR_COLUMNS = `c.id AS calendarId, c.account_id AS calendarAccountId,
  c.name AS calendarName, c.timezone AS calendarTimezone, c.location AS calendarLocation,
  c.hours AS calendarHours,
  c.overrides AS calendarOverrides, c.deleted_at AS calendarDeletedAt,
  c.max_per_day AS calendarMaxPerDay, c.max_per_week AS calendarMaxPerWeek,
  c.busy_kinds AS calendarBusyKinds`;

/**
 * The context query's texts, built once: a text built per request is a new ~2 KB string that mysql2
 * hashes again to find its prepared statement.
 */
const contextSql = (busyColumns: string) => ({
  all: `SELECT ${TYPE_COLUMNS}, ${CALENDAR_COLUMNS}, 1 AS offered ${busyColumns}
           FROM appointment_types t
           LEFT JOIN appointment_type_calendars l ON l.appointment_type_id = t.id
           LEFT JOIN calendars c
             ON c.id = l.calendar_id AND c.account_id = t.account_id AND c.deleted_at IS NULL
          WHERE t.id = ?
          ORDER BY c.id`,
  named: `SELECT ${TYPE_COLUMNS}, ${CALENDAR_COLUMNS}, l.calendar_id IS NOT NULL AS offered
           ${busyColumns}
           FROM appointment_types t
           LEFT JOIN calendars c ON c.id = ?
           LEFT JOIN appointment_type_calendars l
             ON l.appointment_type_id = t.id AND l.calendar_id = c.id
          WHERE t.id = ?`,
});
const CONTEXT_SQL = contextSql('');
const CONTEXT_WITH_BUSY_SQL = contextSql(BUSY_LIST_COLUMN);

/** The rows resolveSlotContext reads: the type, with each of its calendars (or the one named). */
export function readContextRows(
  manager: EntityManager,
  request: SlotRequest,
  busy?: BusyRequest,
): Promise<ContextRow[]> {
  const typeId = request.appointmentTypeID;
  const calendarId = request.calendarID;
  // The busy columns come before the WHERE clause: their parameters come first.
  const sql = busy ? CONTEXT_WITH_BUSY_SQL : CONTEXT_SQL;
  const busyParams = busy ? busyParameters(busy) : [];
  return calendarId === undefined
    ? queryPrepared<ContextRow[]>(manager, sql.all, [...busyParams, typeId])
    : queryPrepared<ContextRow[]>(manager, sql.named, [...busyParams, calendarId, typeId]);
}

/**
 * Resolves a request's type, calendar and addons: 400 with the contract's codes for what does not
 * exist (or was deleted), 403 for another account's, 400 for a calendar or addon the type is not
 * offered with. The type's rules win over the account's. The type and its calendars come in one
 * query (this runs on every availability request and every booking).
 */
export async function resolveSlotContext(
  manager: EntityManager,
  account: Account,
  request: SlotRequest,
  /** Busy time to read in the same query: one round trip instead of two on the hot path. */
  busy?: BusyRequest,
): Promise<SlotContext> {
  const rows = await readContextRows(manager, request, busy);
  const found = rowsContextOf(account, request, rows, busy !== undefined);
  const addons = await offeredAddons(manager, account, found.type, request.addonIDs ?? []);
  return slotContextOf(account, found, addons);
}

async function offeredAddons(
  manager: EntityManager,
  account: Account,
  type: SlotType,
  addonIds: number[],
): Promise<Addon[]> {
  const addons = await findReferenced(
    manager,
    Addon,
    account.id,
    addonIds,
    (id: number | string) => new InvalidAddonError(id),
  );
  if (addons.length === 0) return [];
  const linked: { addonId: number }[] = await manager.query(
    'SELECT addon_id AS addonId FROM appointment_type_addons WHERE appointment_type_id = ? AND addon_id IN (?)',
    [type.id, addons.map((a) => a.id)],
  );
  const offered = new Set(linked.map((l) => Number(l.addonId)));
  const stray = addons.find((addon) => !offered.has(addon.id));
  if (stray) throw new AddonNotOfferedError(stray.id, type.id);
  return addons;
}
