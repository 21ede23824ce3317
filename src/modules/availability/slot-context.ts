import { ForbiddenError } from '../../common/errors/domain-error';
import { MINUTE } from '../../common/time/durations';
import type { Account } from '../accounts';
import {
  ALL_BUSY_KINDS,
  type Addon,
  type AppointmentType,
  type Calendar,
  type DateOverrides,
  type WeeklyHours,
  InvalidAppointmentTypeError,
  InvalidCalendarError,
} from '../catalog';
import { type BusyListColumn, MAX_APPOINTMENT_MINUTES, busyListSpansOf } from './busy-time';
import type { CalendarSchedule, SlotRules } from './slot-engine';
import type { Span } from './working-time';
import { BoundedMap } from '../../common/cache/bounded-map';

/** What a question about availability (or a booking) is about, checked against the account. */
export interface SlotRequest {
  appointmentTypeID: number;
  calendarID?: number;
  addonIDs?: number[];
}

/** The parts of a type and a calendar that availability reads. */
export type SlotType = Pick<
  AppointmentType,
  | 'id'
  | 'accountId'
  | 'name'
  | 'category'
  | 'active'
  | 'kind'
  | 'duration'
  | 'classSize'
  | 'paddingBefore'
  | 'paddingAfter'
  | 'slotInterval'
  | 'minHoursInAdvance'
  | 'maxDaysInAdvance'
  | 'priceCents'
  | 'maxPerDay'
  | 'maxPerWeek'
> & {
  /** Whether any form is linked (booking reads the forms' fields only then); unknown if absent. */
  hasForms?: boolean;
};
export type SlotCalendar = Pick<
  Calendar,
  'id' | 'name' | 'timezone' | 'location' | 'hours' | 'overrides' | 'maxPerDay' | 'maxPerWeek'
>;

/** A calendar as the slot engine sees it, with its busy time. */
export function scheduleOf(calendar: SlotCalendar, busy: Map<number, Span[]>): CalendarSchedule {
  return {
    zone: calendar.timezone,
    hours: calendar.hours,
    overrides: calendar.overrides,
    busy: busy.get(calendar.id) ?? [],
  };
}

/** The type, the calendars that may take it, and the rules the engine applies. */
export interface SlotContext {
  type: SlotType;
  /** The calendar asked for, or every live calendar of the type (ascending id). */
  calendars: SlotCalendar[];
  addons: Addon[];
  rules: SlotRules;
  /** The calendars' busy time over the span asked for with the context, by calendar id. */
  busy?: Map<number, Span[]>;
  /**
   * The BusyKind bits of any of `calendars` (what kinds of busy time they ever had), when read with
   * them; unknown if absent.
   */
  calendarsBusyKinds?: number;
}

/** Whether the type is offered at all: not when inactive, or longer than a day with its addons. */
export function isOffered({ type, rules }: SlotContext): boolean {
  return type.active && rules.duration <= MAX_APPOINTMENT_MINUTES;
}

/**
 * What busy time to read for starts in `[from, until)` whatever the type: a day of padding before,
 * and after, the longest appointment and a day of padding.
 */
export function busySpanAround(window: Span): Span {
  return {
    from: window.from - 1440 * MINUTE,
    until: window.until + (MAX_APPOINTMENT_MINUTES + 1440) * MINUTE,
  };
}

/** A row of the context query: the type, and one calendar (or none) with whether it offers it. */
export interface ContextRow extends Partial<BusyListColumn> {
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
}

/** What the context query's rows settle: the type and its calendars (with their busy time). */
export type RowsContext = Omit<SlotContext, 'addons' | 'rules'>;

/** The context of `rows` (readContextRows'), checked against the account and the request. */
export function rowsContextOf(
  account: Account,
  request: SlotRequest,
  rows: ContextRow[],
  withBusy = false,
): RowsContext {
  const typeId = request.appointmentTypeID;
  const calendarId = request.calendarID;
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
    // The contract has one message for a calendar the type cannot be booked on: it does not exist
    // for that type.
    if (!Number(first.offered)) throw new InvalidCalendarError(calendarId);
  }
  const busyTime = withBusy ? new Map<number, Span[]>() : undefined;
  let calendarsBusyKinds = 0;
  for (const row of rows) {
    if (row.calendarId === null) continue;
    calendarsBusyKinds |= Number(row.calendarBusyKinds ?? ALL_BUSY_KINDS);
    calendars.push(toSlotCalendar(row));
    busyTime?.set(Number(row.calendarId), busyListSpansOf(row));
  }

  return { type, calendars, busy: busyTime, calendarsBusyKinds };
}

/** The context with the addons asked for: the type's rules win over the account's. */
export function slotContextOf(account: Account, found: RowsContext, addons: Addon[]): SlotContext {
  const { type } = found;
  const duration = type.duration + addons.reduce((sum, addon) => sum + addon.duration, 0);
  return {
    ...found,
    addons,
    rules: {
      duration,
      paddingBefore: type.paddingBefore,
      paddingAfter: type.paddingAfter,
      slotInterval: type.slotInterval ?? type.duration,
      minHoursInAdvance: type.minHoursInAdvance ?? account.minHoursInAdvance,
      maxDaysInAdvance: type.maxDaysInAdvance ?? account.maxDaysInAdvance,
    },
  };
}

export function toSlotType(row: ContextRow): SlotType {
  return {
    id: Number(row.id),
    accountId: Number(row.accountId),
    name: row.name,
    category: row.category,
    active: Boolean(Number(row.active)),
    kind: row.kind,
    duration: Number(row.duration),
    classSize: row.classSize === null ? null : Number(row.classSize),
    paddingBefore: Number(row.paddingBefore),
    paddingAfter: Number(row.paddingAfter),
    slotInterval: row.slotInterval === null ? null : Number(row.slotInterval),
    minHoursInAdvance: row.minHoursInAdvance === null ? null : Number(row.minHoursInAdvance),
    maxDaysInAdvance: row.maxDaysInAdvance === null ? null : Number(row.maxDaysInAdvance),
    priceCents: Number(row.priceCents),
    maxPerDay: nullableNumber(row.maxPerDay),
    maxPerWeek: nullableNumber(row.maxPerWeek),
    hasForms: Boolean(Number(row.hasForms)),
  };
}

export function toSlotCalendar(row: ContextRow): SlotCalendar {
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

/**
 * A calendar's hours and overrides come as JSON text (MariaDB) on every availability request and
 * booking; the same few texts each time. Each distinct text is parsed once and its value shared:
 * nothing mutates a calendar's hours or overrides (the engine only reads them).
 * Bounded (a miss only costs a parse).
 */
const MAX_PARSED_TEXTS = 2_000;
const parsedTexts = new BoundedMap<string, unknown>(MAX_PARSED_TEXTS);

function parsedOnce<T>(value: string | T | null): T {
  if (typeof value !== 'string') return value as T;
  let parsed = parsedTexts.get(value);
  if (parsed === undefined) {
    parsed = JSON.parse(value) as unknown;
    parsedTexts.set(value, parsed);
  }
  return parsed as T;
}

function nullableNumber(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}
