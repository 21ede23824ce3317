import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, In, IsNull } from 'typeorm';
import { BoundedMap } from '../../common/cache/bounded-map';
import { queryPrepared } from '../../common/database/prepared';
import { findReferenced } from '../../common/database/tenant-rows';
import { ForbiddenError } from '../../common/errors/domain-error';
import type { Account } from '../accounts';
import {
  ALL_BUSY_KINDS,
  Addon,
  AppointmentType,
  Calendar,
  ClassSession,
  type Assignment,
  type AssignmentWeights,
  type DateOverrides,
  type ResourceLinks,
  type WeeklyHours,
  InvalidAddonError,
  InvalidAppointmentTypeError,
  InvalidCalendarError,
} from '../catalog';
import { AddonNotOfferedError } from './availability.errors';
import { type BusyListColumn, type BusyRequest, busyListSpansOf } from './busy-time';
import { BUSY_LIST_COLUMN, busyParameters } from './busy-time.repository';
import { withResourceBusy } from './resource-usage.repository';
import {
  type SlotCalendar,
  type SlotContext,
  type SlotRequest,
  type SlotType,
  hostFirst,
} from './slot-context';
import { type BookedSlot, heldSlot } from './slot-holds';
import { type Span, kept } from './working-time';

/* What availability reads of the catalog: the slot context, sessions, calendars, class types. */

/** A row of the context query: the type, and one calendar (or none) with whether it offers it. */
interface ContextRow extends Partial<BusyListColumn> {
  id: number;
  accountId: number;
  name: string;
  category: string;
  active: number;
  kind: 'service' | 'class';
  duration: number;
  classSize: number | null;
  paddingBefore: number;
  paddingAfter: number;
  slotInterval: number | null;
  minHoursInAdvance: number | null;
  maxDaysInAdvance: number | null;
  priceCents: number;
  maxPerDay: number | null;
  maxPerWeek: number | null;
  hasForms: number;
  resourceLinks: string | ResourceLinks | null;
  assignment: Assignment;
  assignmentWeights: string | AssignmentWeights | null;
  collective: number;
  deletedAt: Date | null;
  calendarId: number | null;
  calendarAccountId: number | null;
  calendarName: string | null;
  calendarTimezone: string | null;
  calendarLocation: string | null;
  calendarHours: string | WeeklyHours | null;
  calendarOverrides: string | DateOverrides | null;
  calendarMaxPerDay: number | null;
  calendarMaxPerWeek: number | null;
  calendarDeletedAt: Date | null;
  /** The calendar's BusyKind bits (catalog's calendar-busy-kinds.ts). */
  calendarBusyKinds: number | null;
  offered: number | null;
  /** With `withAddonIds`: the type's live addons (ADDON_IDS_COLUMN). */
  addonIds?: string | Buffer | null;
}

const TYPE_COLUMNS = `t.id, t.account_id AS accountId, t.name, t.category, t.active, t.kind, t.duration,
  t.class_size AS classSize, t.padding_before AS paddingBefore, t.padding_after AS paddingAfter,
  t.slot_interval AS slotInterval, t.min_hours_in_advance AS minHoursInAdvance,
  t.max_days_in_advance AS maxDaysInAdvance, t.price_cents AS priceCents, t.deleted_at AS deletedAt,
  t.max_per_day AS maxPerDay, t.max_per_week AS maxPerWeek,
  t.resource_links AS resourceLinks, t.assignment, t.assignment_weights AS assignmentWeights,
  t.collective,
  EXISTS (SELECT 1 FROM appointment_type_forms f WHERE f.appointment_type_id = t.id) AS hasForms`;
const CALENDAR_COLUMNS = `c.id AS calendarId, c.account_id AS calendarAccountId,
  c.name AS calendarName, c.timezone AS calendarTimezone, c.location AS calendarLocation,
  c.hours AS calendarHours,
  c.overrides AS calendarOverrides, c.deleted_at AS calendarDeletedAt,
  c.max_per_day AS calendarMaxPerDay, c.max_per_week AS calendarMaxPerWeek,
  c.busy_kinds AS calendarBusyKinds`;

/** The context query's texts, built once: mysql2 would hash a new ~2 KB text per request. */
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
/** The type's live addons, as `1,2,3` by id (null: none): what the scheduling page offers. */
const ADDON_IDS_COLUMN = `,
  (SELECT GROUP_CONCAT(a.addon_id ORDER BY a.addon_id) FROM appointment_type_addons a
    JOIN addons x ON x.id = a.addon_id AND x.deleted_at IS NULL
    WHERE a.appointment_type_id = t.id) AS addonIds`;
const CONTEXT_SQL = contextSql('');
const CONTEXT_WITH_BUSY_SQL = contextSql(BUSY_LIST_COLUMN);
const CONTEXT_WITH_BUSY_AND_ADDONS_SQL = contextSql(BUSY_LIST_COLUMN + ADDON_IDS_COLUMN);

/**
 * Resolves a request's type, calendar and addons: 400 with the contract's codes for what does not
 * exist (or was deleted) or is not offered with the type, 403 for another account's. The type's
 * rules win over the account's. The type and its calendars come in one query (the hot path).
 */
export async function resolveSlotContext(
  manager: EntityManager,
  account: Account,
  request: SlotRequest,
  /** Busy time to read in the same query: one round trip instead of two on the hot path. */
  busy?: BusyRequest,
  /** With busy time: the type's live addons too (SlotContext.addonIds), for the scheduling page. */
  withAddonIds = false,
): Promise<SlotContext> {
  const typeId = request.appointmentTypeID;
  const calendarId = request.calendarID;
  // The busy columns come before the WHERE clause: their parameters come first.
  const sql = busy
    ? withAddonIds
      ? CONTEXT_WITH_BUSY_AND_ADDONS_SQL
      : CONTEXT_WITH_BUSY_SQL
    : CONTEXT_SQL;
  const busyParams = busy ? busyParameters(busy) : [];
  const rows = await (calendarId === undefined
    ? queryPrepared<ContextRow[]>(manager, sql.all, [...busyParams, typeId])
    : queryPrepared<ContextRow[]>(manager, sql.named, [...busyParams, calendarId, typeId]));
  const first = rows[0];
  if (!first) throw new InvalidAppointmentTypeError(typeId);
  if (Number(first.accountId) !== account.id) throw new ForbiddenError();
  if (first.deletedAt) throw new InvalidAppointmentTypeError(typeId);
  const type = toSlotType(first);

  const calendars: SlotCalendar[] = [];
  if (calendarId !== undefined) {
    if (first.calendarId === null) throw new InvalidCalendarError(calendarId);
    if (Number(first.calendarAccountId) !== account.id) throw new ForbiddenError();
    if (first.calendarDeletedAt) throw new InvalidCalendarError(calendarId);
    // A calendar the type cannot be booked on does not exist for it (the contract's one message).
    if (!Number(first.offered)) throw new InvalidCalendarError(calendarId);
    // A collective type takes all its calendars: the one named is the host, first.
    if (type.collective) {
      const all = { ...request, calendarID: undefined };
      const ctx = await resolveSlotContext(manager, account, all, busy, withAddonIds);
      return { ...ctx, calendars: hostFirst(ctx.calendars, calendarId) };
    }
  }
  const busyTime = busy ? new Map<number, Span[]>() : undefined;
  let calendarsBusyKinds = 0;
  for (const row of rows) {
    if (row.calendarId === null) continue;
    calendarsBusyKinds |= Number(row.calendarBusyKinds ?? ALL_BUSY_KINDS);
    calendars.push(toSlotCalendar(row));
    busyTime?.set(Number(row.calendarId), busyListSpansOf(row));
  }

  const addons = await offeredAddons(manager, account, type, request.addonIDs ?? []);
  const duration = type.duration + addons.reduce((sum, addon) => sum + addon.duration, 0);
  const ctx: SlotContext = {
    type,
    calendars,
    addons,
    busy: busyTime,
    calendarsBusyKinds,
    ...(busy && withAddonIds ? { addonIds: idList(first.addonIds ?? null) } : {}),
    rules: {
      duration,
      paddingBefore: type.paddingBefore,
      paddingAfter: type.paddingAfter,
      slotInterval: type.slotInterval ?? type.duration,
      minHoursInAdvance: type.minHoursInAdvance ?? account.minHoursInAdvance,
      maxDaysInAdvance: type.maxDaysInAdvance ?? account.maxDaysInAdvance,
    },
  };
  // The type's resources' full time, busy for each calendar (its uses read over the same span).
  if (busy && busyTime) ctx.busy = await withResourceBusy(manager, ctx, busyTime, busy);
  return ctx;
}

/** A booking's or a move's reads before its transaction (slot context, hold), on the primary. */
@Injectable()
export class SlotContexts {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  resolve(account: Account, request: SlotRequest): Promise<SlotContext> {
    return resolveSlotContext(this.dataSource.manager, account, request);
  }

  /** The live hold booked with `token` (see heldSlot). */
  hold(accountId: number, token: string | undefined, booked: BookedSlot) {
    return heldSlot(this.dataSource.manager, accountId, token, booked);
  }
}

const idList = (list: string | Buffer | null): number[] =>
  list === null ? [] : String(list).split(',').map(Number);

function toSlotType(row: ContextRow): SlotType {
  return {
    id: Number(row.id),
    accountId: Number(row.accountId),
    name: row.name,
    category: row.category,
    active: Boolean(Number(row.active)),
    kind: row.kind,
    duration: Number(row.duration),
    classSize: nullableNumber(row.classSize),
    paddingBefore: Number(row.paddingBefore),
    paddingAfter: Number(row.paddingAfter),
    slotInterval: nullableNumber(row.slotInterval),
    minHoursInAdvance: nullableNumber(row.minHoursInAdvance),
    maxDaysInAdvance: nullableNumber(row.maxDaysInAdvance),
    priceCents: Number(row.priceCents),
    maxPerDay: nullableNumber(row.maxPerDay),
    maxPerWeek: nullableNumber(row.maxPerWeek),
    hasForms: Boolean(Number(row.hasForms)),
    resourceLinks: row.resourceLinks === null ? null : parsedOnce<ResourceLinks>(row.resourceLinks),
    assignment: row.assignment,
    assignmentWeights:
      row.assignmentWeights === null ? null : parsedOnce<AssignmentWeights>(row.assignmentWeights),
    collective: Boolean(Number(row.collective)),
  };
}

function toSlotCalendar(row: ContextRow): SlotCalendar {
  return {
    id: Number(row.calendarId),
    name: row.calendarName!,
    timezone: row.calendarTimezone!,
    location: row.calendarLocation ?? '',
    hours: parsedOnce<WeeklyHours>(row.calendarHours),
    overrides: parsedOnce<DateOverrides>(row.calendarOverrides),
    maxPerDay: nullableNumber(row.calendarMaxPerDay),
    maxPerWeek: nullableNumber(row.calendarMaxPerWeek),
  };
}

/** Hours and overrides come as the same few JSON texts: each parsed once and shared (read only). */
const MAX_PARSED_TEXTS = 2_000;
const parsedTexts = new BoundedMap<string, unknown>(MAX_PARSED_TEXTS);

function parsedOnce<T>(value: string | T | null): T {
  if (typeof value !== 'string') return value as T;
  return kept(parsedTexts, value, () => JSON.parse(value) as unknown) as T;
}

function nullableNumber(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}

async function offeredAddons(
  manager: EntityManager,
  account: Account,
  type: SlotType,
  addonIds: number[],
): Promise<Addon[]> {
  const missing = (id: number | string) => new InvalidAddonError(id);
  const addons = await findReferenced(manager, Addon, account.id, addonIds, missing);
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

/** The class session of a type on a calendar at `start`, if there is one. */
export function sessionAt(
  tx: EntityManager,
  typeId: number,
  calendarId: number,
  start: number,
): Promise<ClassSession | null> {
  return tx.findOneBy(ClassSession, {
    appointmentTypeId: typeId,
    calendarId,
    startsAt: new Date(start),
  });
}

/** The sessions of these types (on these calendars, or any) starting in `window`, by start. */
export function sessionsIn(
  manager: EntityManager,
  typeIds: number[],
  calendarIds: number[] | undefined,
  window: Span,
): Promise<ClassSession[]> {
  return manager
    .createQueryBuilder(ClassSession, 's')
    .where('s.appointmentTypeId IN (:...typeIds)', { typeIds })
    .andWhere(calendarIds ? 's.calendarId IN (:...calendarIds)' : '1 = 1', { calendarIds })
    .andWhere('s.startsAt >= :from AND s.startsAt < :until', {
      from: new Date(window.from),
      until: new Date(window.until),
    })
    .orderBy('s.startsAt', 'ASC')
    .addOrderBy('s.id', 'ASC')
    .getMany();
}

export function liveCalendars(manager: EntityManager, ids: number[]): Promise<Calendar[]> {
  return manager.find(Calendar, { where: { id: In(ids), deletedAt: IsNull() } });
}

export function liveClassTypes(
  manager: EntityManager,
  accountId: number,
): Promise<AppointmentType[]> {
  return manager.find(AppointmentType, {
    where: { accountId, kind: 'class', deletedAt: IsNull() },
  });
}

/** The type a request names: a live type of the account (`invalid_appointment_type`). */
export async function namedType(
  manager: EntityManager,
  accountId: number,
  id: number,
): Promise<AppointmentType> {
  const missing = (id: number | string) => new InvalidAppointmentTypeError(id);
  return (await findReferenced(manager, AppointmentType, accountId, [id], missing))[0];
}

/** The calendars a request names: live calendars of the account (`invalid_calendar`). */
export function namedCalendars(
  manager: EntityManager,
  accountId: number,
  ids: readonly number[],
): Promise<Calendar[]> {
  return findReferenced(manager, Calendar, accountId, ids, (id) => new InvalidCalendarError(id));
}
