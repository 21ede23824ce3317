import type { EntityManager } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import { locksWrite } from '../../common/database/row-locks';
import { DAY, MINUTE } from '../../common/time/durations';
import type { ResourceLinks } from '../catalog';
import { type BusyRequest, MAX_BUSY_SPAN_MINUTES, json, utcMillis } from './busy-time';
import { readBusyTime } from './busy-time.repository';
import { type ResourceUse, resourceBusy, withExtraBusy } from './resource-usage';
import type { SlotContext, SlotType } from './slot-context';
import type { Span } from './working-time';

/*
 * What uses a resource's units (docs/resources.md): the non-canceled appointments, the live holds
 * and the class sessions of every type linked to it, each for its whole span, padding included.
 * Read from those rows themselves, so no ledger has to follow each booking, move, cancel, hold and
 * session. A class's seats take no unit: its session took one when it was put on the calendar.
 *
 * A type's resources (their names and quantities) and the types that list each are known before
 * any lock: the type's `resource_links`, read with its context and kept by every change of the
 * catalog that alters them, in its own transaction. The days are locked and the uses read by those
 * ids: as with any catalog change racing a booking, a booking is checked on the catalog as read.
 */

/** The context a resource check reads and completes (what the answers name, whether held). */
export type ResourceCheck = Pick<SlotContext, 'type' | 'resourcesHeld' | 'resources'>;

/** A row of the uses' columns (useColumns): `[type id, from, until]` of each use, by kind. */
interface UsesRow {
  resourceAppointments: string | UseTriple[] | null;
  resourceHolds: string | UseTriple[] | null;
  resourceSessions?: string | UseTriple[] | null;
}
type UseTriple = [number, string, string];

/** What `account` is in the statements: the locked calendar's column, or a value of its own. */
type AccountOf = 'c.account_id' | '?';

/**
 * Each kind of use overlapping the window, by the types that list the type's resources (a range
 * of the `(appointment_type_id, starts_at)` index per type over the window, named: the planner
 * would weigh every index on every run, and may take `class_id IS NULL` for a narrow lookup when
 * it is every service's row): `[type id, from, until]` each, attributed to resources by the links. The
 * appointments are read from their index alone (it holds the busy span, canceled and class): by
 * type only, as those types are the account's own (its links), which the holds' read names.
 */
function useColumns(account: AccountOf, sessions: boolean): string {
  const columns = [
    `(SELECT JSON_ARRAYAGG(JSON_ARRAY(u.appointment_type_id, u.busy_from, u.busy_until))
     FROM appointments u FORCE INDEX (idx_appointments_type_start)
    WHERE u.appointment_type_id IN (?)
      AND u.starts_at >= ? AND u.starts_at < ? AND u.busy_from < ? AND u.busy_until > ?
      AND u.canceled = 0 AND u.class_id IS NULL AND u.id NOT IN (?)) AS resourceAppointments`,
    `(SELECT JSON_ARRAYAGG(JSON_ARRAY(h.appointment_type_id, h.busy_from, h.busy_until))
     FROM slot_holds h FORCE INDEX (idx_slot_holds_type_start)
    WHERE h.account_id = ${account} AND h.appointment_type_id IN (?)
      AND h.starts_at >= ? AND h.starts_at < ? AND h.busy_from < ? AND h.busy_until > ?
      AND h.expires_at > ? AND h.class_id IS NULL AND h.id <> ?) AS resourceHolds`,
  ];
  if (sessions)
    columns.push(`(SELECT JSON_ARRAYAGG(JSON_ARRAY(s.appointment_type_id,
       s.starts_at - INTERVAL st.padding_before MINUTE,
       s.starts_at + INTERVAL (st.duration + st.padding_after) MINUTE))
     FROM classes s JOIN appointment_types st ON st.id = s.appointment_type_id AND st.deleted_at IS NULL
    WHERE s.account_id = ${account} AND s.appointment_type_id IN (?)
      AND s.starts_at >= ? AND s.starts_at < ?
      AND s.starts_at - INTERVAL st.padding_before MINUTE < ?
      AND s.starts_at + INTERVAL (st.duration + st.padding_after) MINUTE > ?) AS resourceSessions`);
  return columns.join(',\n  ');
}

/** The texts of useColumns by shape, built once: in the calendar's statement, or on their own. */
const useTexts = new Map<string, string>();

function useText(account: AccountOf, sessions: boolean): string {
  const key = `${account}${sessions}`;
  let text = useTexts.get(key);
  if (text === undefined) {
    const columns = useColumns(account, sessions);
    text = account === '?' ? `SELECT ${columns}` : columns;
    useTexts.set(key, text);
  }
  return text;
}

/** useColumns' values (with the account's own where `account` is `?`). */
function useParameters(
  accountId: number | undefined,
  links: ResourceLinks,
  request: BusyRequest,
  now: number,
): unknown[] {
  const from = new Date(request.from);
  const until = new Date(request.until);
  // A use starts at most a day after its padded span does, and lasts at most its longest span.
  const lowest = new Date(request.from - MAX_BUSY_SPAN_MINUTES * MINUTE);
  const highest = new Date(request.until + 1440 * MINUTE);
  const own = accountId === undefined ? [] : [accountId];
  const near = (types: readonly number[]) => [listOrOne(types), lowest, highest, until];
  const peers = peersOf(links);
  const params = [
    ...near(peers),
    from,
    listOrOne(request.ignoreAppointmentIds, 0),
    ...own,
    ...near(peers),
    from,
    new Date(now),
    request.ignoreHoldId ?? 0,
  ];
  if (links.classTypes) params.push(...own, ...near(links.classTypes), from);
  return params;
}

/** Every type listing one of the type's resources (itself included), ascending. */
function peersOf(links: ResourceLinks): number[] {
  return [...new Set(links.resources.flatMap((r) => r.types))].sort((a, b) => a - b);
}

/**
 * A list as a statement value, or its one value alone: a statement with no list keeps its text
 * (expandLists rewrites it otherwise); empty: `none`.
 */
function listOrOne(values: readonly number[] | readonly string[], none = 0): unknown {
  return values.length === 1 ? values[0] : values.length === 0 ? none : values;
}

/** The type's resources with their uses over `request`, from a row of useColumns. */
function resourceUsesOf(
  row: UsesRow,
  links: ResourceLinks,
): (ResourceUse & { id: number; name: string })[] {
  const kinds = [
    json<UseTriple[] | null>(row.resourceAppointments) ?? [],
    json<UseTriple[] | null>(row.resourceHolds) ?? [],
    json<UseTriple[] | null>(row.resourceSessions ?? null) ?? [],
  ];
  return links.resources.map(({ id, name, quantity, types }) => {
    const uses: Span[] = [];
    let held = false;
    for (const [kind, triples] of kinds.entries())
      for (const [typeId, from, until] of triples) {
        if (!types.includes(Number(typeId))) continue;
        uses.push({ from: utcMillis(from), until: utcMillis(until) });
        if (kind === 1) held = true;
      }
    return { id, name, quantity, uses, held };
  });
}

/** The links a booking of the type locks and reads: a service that lists resources; else none. */
export function resourceLinksToCheck(type: Pick<SlotType, 'kind' | 'resourceLinks'>) {
  // A class's seat takes no unit (its session holds it): neither locked nor read for it.
  const links = type.kind === 'service' ? type.resourceLinks : null;
  return links && links.resources.length > 0 ? links : null;
}

/** `busy` with the full time of the resources of `uses`; the check's context completed. */
function withUses(
  ctx: ResourceCheck,
  busy: Map<number, Span[]>,
  uses: (ResourceUse & { id: number; name: string })[],
): Map<number, Span[]> {
  if (uses.some((u) => u.held)) ctx.resourcesHeld = true;
  ctx.resources = uses.map(({ id, name }) => ({ id, name }));
  return withExtraBusy(busy, resourceBusy(uses));
}

/** The type's resources with their uses over `request`, in a statement of their own. */
async function readResourceUses(
  manager: EntityManager,
  type: Pick<SlotType, 'accountId'>,
  links: ResourceLinks,
  request: BusyRequest,
  now: number,
): Promise<(ResourceUse & { id: number; name: string })[]> {
  const [row] = await queryPrepared<UsesRow[]>(
    manager,
    useText('?', links.classTypes !== null),
    useParameters(type.accountId, links, request, now),
  );
  return resourceUsesOf(row, links);
}

/**
 * `busy` (each calendar's) with the time the context's type finds a resource it needs full, when
 * it needs any (resourceLinksToCheck): what a calendar cannot offer it although free itself. Sets
 * `ctx.resourcesHeld` when a live hold uses one (the answer may change at its expiry).
 */
export async function withResourceBusy(
  manager: EntityManager,
  ctx: ResourceCheck,
  busy: Map<number, Span[]>,
  request: BusyRequest,
  now = Date.now(),
): Promise<Map<number, Span[]>> {
  const links = resourceLinksToCheck(ctx.type);
  if (!links) return busy;
  return withUses(ctx, busy, await readResourceUses(manager, ctx.type, links, request, now));
}

/** The UTC days (`YYYY-MM-DD`, ascending) a span touches. */
function daysOf(span: Span): string[] {
  const days: string[] = [];
  for (let day = Math.floor(span.from / DAY); day * DAY < span.until; day++)
    days.push(new Date(day * DAY).toISOString().slice(0, 10));
  return days;
}

/** LOCK_DAYS' texts by number of rows. */
const lockTexts = new Map<number, string>();

/**
 * Locks, for each resource the type needs, the UTC days (`resource_days`) a span touches by writing
 * them (docs/architecture.md, "Locks are writes"): INSERT … ON DUPLICATE KEY UPDATE inserts the rows
 * it lacks and increments the others' `lock_version`, taking an exclusive lock on each row in the
 * order of its values (resource, then day, ascending). Every booking locks its
 * calendars first, then these: one global order, so two bookings never wait on each other in a
 * cycle. Every writer of a use of a resource holds the rows of the days its span touches, and the
 * uses a booking reads overlap its own span, so touch one of its days: whoever holds those rows is
 * the only one checking and writing uses that could meet the booking's. Bookings of one resource on
 * days apart do not wait on each other. None for a type that needs none.
 */
export async function lockResources(tx: EntityManager, ctx: ResourceCheck, span: Span) {
  const links = resourceLinksToCheck(ctx.type);
  if (!links) return;
  const days = daysOf(span);
  const ids = links.resources.map((r) => r.id).sort((a, b) => a - b);
  const values = ids.flatMap((id) => days.map((day) => [ctx.type.accountId, id, day]));
  let text = lockTexts.get(values.length);
  if (text === undefined) {
    text = `INSERT INTO resource_days (account_id, resource_id, day)
VALUES ${values.map(() => '(?, ?, ?)').join(', ')} ON DUPLICATE KEY UPDATE lock_version = lock_version + 1`;
    lockTexts.set(values.length, text);
  }
  await queryPrepared(tx, text, values.flat());
}

/** LockedResources' columns of a row: how many day rows were locked (one server), then the uses. */
export type LockedUsesRow = UsesRow & { lockedDays?: number | string };

/**
 * What a calendar's locking read adds to read its type's resources' uses in the same round trip
 * (CalendarLocks). Where locks are writes (a cluster), `lock` writes the days' rows
 * (lockResources, after the calendar's) before the statement. On one server the statement locks
 * them itself: a first column that locks the rows of the days that exist, then, once those locks
 * are granted, the uses' columns. Filled in by that statement (`row`); `settle` then answers from
 * it, or locks and reads anew when a day had no row yet.
 */
export interface LockedResources {
  /** What tells the statement's texts apart (the uses' columns differ with class types). */
  shape: string;
  /** Writes and locks the days' rows (lockResources): where locks are writes. */
  lock(tx: EntityManager): Promise<void>;
  /** The first column on one server: a locking read of the days' rows, before any other read. */
  lockColumn: string;
  lockParameters: unknown[];
  /** The last columns: the uses, read under those locks. */
  useColumns: string;
  useParameters: unknown[];
  /** The links they were built from, and how many day rows the lock column must find. */
  links: ResourceLinks;
  expectedDays: number;
  /** The row the statement returned, if any. */
  row?: LockedUsesRow;
}

/** The LockedResources of a check of `ctx` over `request`, or none when its type needs none. */
export function lockedResourcesOf(
  ctx: ResourceCheck,
  request: BusyRequest,
  now = Date.now(),
): LockedResources | undefined {
  const links = resourceLinksToCheck(ctx.type);
  if (!links) return undefined;
  const days = daysOf(request);
  return {
    links,
    expectedDays: links.resources.length * days.length,
    shape: links.classTypes === null ? 'resources' : 'resources and sessions',
    lock: (tx) => lockResources(tx, ctx, request),
    // A locking read in a subquery locks what it reads (the outer FOR UPDATE alone would not).
    // At READ COMMITTED the statement's read view opens at its first non-locking read, after
    // this column: the uses read below see every use committed before these locks were granted.
    // So no column of the statement may read a row while it is optimised, as MariaDB reads a
    // table looked up by a whole unique key of constants (a resource by id would open the view
    // before these locks): each is a range or a lookup by the locked row's columns.
    lockColumn: `(SELECT COUNT(*) FROM resource_days d
    WHERE d.account_id = c.account_id AND d.resource_id IN (?) AND d.day IN (?) FOR UPDATE) AS lockedDays`,
    lockParameters: [listOrOne(links.resources.map((r) => r.id)), listOrOne(days)],
    useColumns: useText('c.account_id', links.classTypes !== null),
    useParameters: useParameters(undefined, links, request, now),
  };
}

/**
 * `busy` with the type's resources' full time, from what the calendar's locking statement read
 * (`locked.row`). On one server a day without its row yet was not locked (a locking read of a row
 * that does not exist locks nothing at READ COMMITTED): then the days are written and locked
 * (after the calendars, in the one global order) and the uses read again, under all of them.
 */
export async function settleResourceBusy(
  tx: EntityManager,
  ctx: ResourceCheck,
  locked: LockedResources,
  busy: Map<number, Span[]>,
  request: BusyRequest,
): Promise<Map<number, Span[]>> {
  const { row, links, expectedDays } = locked;
  if (row && (locksWrite() || Number(row.lockedDays) === expectedDays))
    return withUses(ctx, busy, resourceUsesOf(row, links));
  await lockResources(tx, ctx, request);
  return withResourceBusy(tx, ctx, busy, request);
}

/** The calendars' busy time and the type's resources' over `request` (but what it ignores). */
export async function readSlotBusy(
  manager: EntityManager,
  ctx: ResourceCheck,
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
  ctx: ResourceCheck,
  calendarIds: number[],
  request: BusyRequest,
): Promise<Map<number, Span[]>> {
  await lockResources(tx, ctx, request);
  return readSlotBusy(tx, ctx, calendarIds, request);
}
