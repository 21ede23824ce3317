import type { EntityManager } from 'typeorm';
import { DomainError, shown } from '../../common/errors/domain-error';
import { toIdList } from '../../common/http/id-list';
import { formatInZone, parseDatetime } from '../../common/time/datetimes';
import { type Account, assertTimezone } from '../accounts';
import type { AppointmentType, Calendar, ClassSession } from '../catalog';
import type {
  AvailableClassesRequest,
  AvailableDatesRequest,
  AvailableTimesRequest,
} from './availability.requests';
import {
  InvalidDatetimeError,
  NoAvailableCalendarError,
  NotAClassError,
  NotAvailableError,
  TooManyTimesError,
} from './availability.errors';
import type {
  AvailableClass,
  AvailableDate,
  AvailableTime,
  CheckedTime,
  DatesWithTimes,
} from './availability.views';
import { hasLimits, limitFilter } from './booking-limits';
import { busyAround } from './busy-time';
import { readSeatsTaken } from './busy-time.repository';
import { readSlotBusy } from './resource-usage.repository';
import {
  liveCalendars,
  liveClassTypes,
  namedCalendars,
  namedType,
  resolveSlotContext,
  sessionsIn,
} from './slot-context.repository';
import {
  type SlotContext,
  type SlotType,
  busySpanAround,
  isOffered,
  startCounts,
} from './slot-context';
import { assertInAdvanceWindow } from './placement';
import { anyZoneSpan, classRange, dayInUtc, monthInUtc, parseDay, parseMonth } from './query-spans';
import { planBusyRead, settleBusyRead } from './read-window';
import type { TimedAnswer } from '../../common/cache/epoch-cache';
import { timesValidUntil } from './availability-answers';
import { slotRequestOf } from './slot-request';
import { type Unavailable, checkSession } from './slot-engine';
import { type Span, zoneClock } from './working-time';

/** At most this many times in one `POST /availability/check-times`. */
export const MAX_CHECKED_TIMES = 100;

interface OpenSession {
  session: ClassSession;
  type: SlotType;
  calendar: Calendar;
  seats: number;
  taken: number;
  /** Why it cannot take one more client now, or null. */
  unavailable: Unavailable | null;
}

/**
 * `/availability/*`: the slot engine fed with a type's calendars and busy time. Dates and times are
 * in the `timezone` asked for, else the calendar's (one asked for, or the type's one), else the
 * account's.
 */
export class AvailableSlots {
  /** On the primary, or on a replica (see availability.queries.ts). */
  constructor(private readonly manager: EntityManager) {}

  async dates(
    account: Account,
    query: AvailableDatesRequest,
    now = Date.now(),
  ): Promise<AvailableDate[]> {
    const { zone, month, counts } = await this.monthStarts(account, query, now);
    return datesOf(zone, month, counts);
  }

  /**
   * `dates` of the month and `times` of `date` (the scheduling page's date step) from one read of
   * the context and busy time; a date outside the month has its times read as `times` reads them.
   * With the instant until which the same data gives the same answer, as `timedTimes`.
   */
  async datesWithTimes(
    account: Account,
    query: AvailableDatesRequest & { date: string },
    now = Date.now(),
  ): Promise<TimedAnswer<DatesWithTimes>> {
    const { date, ...monthQuery } = query;
    const monthly = await this.monthStarts(account, monthQuery, now, true);
    const { ctx, zone, month, counts } = monthly;
    const read = {
      dates: datesOf(zone, month, counts),
      type: ctx.type,
      calendarIds: ctx.calendars.map((c) => c.id),
      addonIds: ctx.addonIds ?? [],
    };
    // No start of the day goes before the month's first (timesValidUntil).
    const validUntil = timesValidUntil(ctx, month, counts.keys(), now);
    const day = parseDay(date, zone);
    if (day.from < month.from || day.until > month.until) {
      const times = await this.timedTimes(account, query, now);
      const until = Math.min(validUntil, times.validUntil);
      return { answer: { ...read, times: times.answer }, validUntil: until };
    }
    // Unless the month has every start, the day's are counted on the busy time read for it.
    const dayCounts = monthly.complete ? counts : await this.serviceStarts(ctx, day, now);
    return { answer: { ...read, times: timesOf(zone, day, dayCounts) }, validUntil };
  }

  /**
   * The month's free starts in the zone of its dates, enough to tell them; `complete` when every
   * start is there. Without limits (which may refuse a day's first start and not a later one), a
   * calendar of that zone gives its first start of each day: its day is then a date of the zone.
   */
  private async monthStarts(
    account: Account,
    query: AvailableDatesRequest,
    now: number,
    withAddonIds = false,
  ): Promise<{ ctx: SlotContext; zone: string; month: Span; counts: Starts; complete: boolean }> {
    const plan = planBusyRead(
      query,
      (zone) => parseMonth(query.month, zone),
      () => busySpanAround(anyZoneSpan(monthInUtc(query.month))),
    );
    const busy = { ...plan.read, ignoreAppointmentIds: [] };
    const ctx = await resolveSlotContext(this.manager, account, query, busy, withAddonIds);
    const zone = displayZone(account, ctx, query.timezone);
    const month = plan.zone === zone ? plan.window! : parseMonth(query.month, zone);
    settleBusyRead(plan, ctx, zone, month, query.timezone !== undefined);
    if (ctx.type.kind === 'class') {
      const counts = seatCounts(await this.sessions(ctx, month, now));
      return { ctx, zone, month, counts, complete: true };
    }
    const complete = [ctx.type, ...ctx.calendars].some(hasLimits);
    const counts = await this.serviceStarts(ctx, month, now, [], complete ? undefined : zone);
    return { ctx, zone, month, counts, complete };
  }

  /** `times`, with until when the same data gives the same answer (see timesValidUntil). */
  async timedTimes(
    account: Account,
    query: AvailableTimesRequest,
    now = Date.now(),
  ): Promise<TimedAnswer<AvailableTime[]>> {
    const ignore = query.ignoreAppointmentIDs ?? [];
    const plan = planBusyRead(
      query,
      (zone) => parseDay(query.date, zone),
      () => busySpanAround(anyZoneSpan(dayInUtc(query.date))),
    );
    const busy = { ...plan.read, ignoreAppointmentIds: ignore };
    const ctx = await resolveSlotContext(this.manager, account, query, busy);
    const zone = displayZone(account, ctx, query.timezone);
    const day = plan.zone === zone ? plan.window! : parseDay(query.date, zone);
    settleBusyRead(plan, ctx, zone, day, query.timezone !== undefined);
    const counts =
      ctx.type.kind === 'class'
        ? seatCounts(await this.sessions(ctx, day, now, ignore))
        : await this.serviceStarts(ctx, day, now, ignore);
    const validUntil = timesValidUntil(ctx, day, counts.keys(), now);
    return { answer: timesOf(zone, day, counts), validUntil };
  }

  async classes(
    account: Account,
    query: AvailableClassesRequest,
    now = Date.now(),
  ): Promise<AvailableClass[]> {
    const timezone = query.timezone === undefined ? undefined : assertTimezone(query.timezone);
    const rangeZone = timezone ?? account.timezone;
    const range = classRange(query, rangeZone, account, now);
    const types = (await this.classTypes(account, query.appointmentTypeID)).filter(
      (type) => query.includePrivate || !type.private,
    );
    const named = query.calendarID === undefined ? undefined : [query.calendarID];
    const calendarIds =
      named && (await namedCalendars(this.manager, account.id, named)).map((c) => c.id);
    const open = await this.openSessions(account, types, calendarIds, range, now, []);
    return open
      .filter((s) => query.includeUnavailable || !s.unavailable)
      .map(({ session, type, calendar, seats, taken }) => ({
        id: session.id,
        appointmentTypeID: type.id,
        calendarID: calendar.id,
        name: session.name,
        time: formatInZone(session.startsAt, timezone ?? calendar.timezone),
        calendar: calendar.name,
        duration: type.duration,
        isSeries: false,
        slots: seats,
        slotsAvailable: Math.max(0, seats - taken),
      }));
  }

  /** Each item checked as POST /appointments would check it; a refusal is a `reason`, not a 4xx. */
  async checkTimes(
    account: Account,
    items: Record<string, unknown>[],
    now = Date.now(),
  ): Promise<CheckedTime[]> {
    if (items.length > MAX_CHECKED_TIMES) throw new TooManyTimesError(MAX_CHECKED_TIMES);
    const results: CheckedTime[] = [];
    for (const item of items) {
      const asked: CheckedTime = { valid: false };
      for (const key of ['datetime', 'appointmentTypeID', 'calendarID', 'addonIDs'] as const)
        if (item[key] !== undefined) asked[key] = item[key];
      try {
        await this.assertBookable(account, item, now);
        results.push({ ...asked, valid: true });
      } catch (e) {
        if (!(e instanceof DomainError)) throw e;
        results.push({ ...asked, valid: false, reason: e.code });
      }
    }
    return results;
  }

  /** Throws the error booking would give for this time, in booking's order. */
  private async assertBookable(
    account: Account,
    item: Record<string, unknown>,
    now: number,
  ): Promise<void> {
    const { appointmentTypeID, calendarID } = slotRequestOf(item);
    const addonIDs = toIdList(item.addonIDs);
    const addonIds = Array.isArray(addonIDs) ? addonIDs.filter((a) => typeof a === 'number') : [];
    const request = { appointmentTypeID, calendarID, addonIDs: addonIds };
    const ctx = await resolveSlotContext(this.manager, account, request);
    const zone = calendarID === undefined ? account.timezone : ctx.calendars[0].timezone;
    const text = shown(item.datetime);
    const parsed = parseDatetime(text, zone);
    if (parsed.kind === 'invalid') throw new InvalidDatetimeError(text);
    if (parsed.kind === 'nonexistent') throw new NotAvailableError('not_available', text);
    const start = parsed.moment.toMillis();
    assertInAdvanceWindow(ctx.rules, start, text, now);

    const point = { from: start, until: start + 1 };
    const free =
      ctx.type.kind === 'class'
        ? (await this.sessions(ctx, point, now)).some((s) => !s.unavailable)
        : (await this.serviceStarts(ctx, point, now)).size > 0;
    if (free) return;
    if (calendarID === undefined) throw new NoAvailableCalendarError();
    throw new NotAvailableError('not_available', text);
  }

  /**
   * Free starts in `window` over the context's calendars: start → how many calendars can take it.
   * With `datesIn`, a calendar of that zone gives only its first of each day (see monthStarts).
   */
  private async serviceStarts(
    ctx: SlotContext,
    window: Span,
    now: number,
    ignore: number[] = [],
    datesIn?: string,
  ): Promise<Map<number, number>> {
    if (!isOffered(ctx) || ctx.calendars.length === 0) return new Map();
    const ids = ctx.calendars.map((c) => c.id);
    const read = { ...busyAround(ctx.rules, window), ignoreAppointmentIds: ignore };
    const busy = ctx.busy ?? (await readSlotBusy(this.manager, ctx, ids, read));
    const withinLimits = await limitFilter(this.manager, ctx, window);
    return startCounts(ctx, busy, { window, now, withinLimits, datesIn });
  }

  /** The sessions of the context's class type on its calendars starting in `window`. */
  private sessions(
    ctx: SlotContext,
    window: Span,
    now: number,
    ignore: number[] = [],
  ): Promise<OpenSession[]> {
    if (!ctx.type.active || ctx.calendars.length === 0) return Promise.resolve([]);
    const ids = ctx.calendars.map((c) => c.id);
    return this.openSessions(undefined, [ctx.type], ids, window, now, ignore, ctx);
  }

  private async openSessions(
    account: Account | undefined,
    types: SlotType[],
    calendarIds: number[] | undefined,
    window: Span,
    now: number,
    ignore: number[],
    ctx?: SlotContext,
  ): Promise<OpenSession[]> {
    if (types.length === 0 || calendarIds?.length === 0) return [];
    const manager = this.manager;
    const typeIds = types.map((t) => t.id);
    const sessions = await sessionsIn(manager, typeIds, calendarIds, window);
    if (sessions.length === 0) return [];
    const calendarsOf = [...new Set(sessions.map((s) => s.calendarId))];
    const calendars = new Map((await liveCalendars(manager, calendarsOf)).map((c) => [c.id, c]));
    const sessionIds = sessions.map((s) => s.id);
    const taken = await readSeatsTaken(manager, sessionIds, ignore);
    const typeById = new Map(types.map((t) => [t.id, t]));
    const open: OpenSession[] = [];
    for (const session of sessions) {
      const type = typeById.get(session.appointmentTypeId)!;
      const calendar = calendars.get(session.calendarId);
      if (!calendar) continue;
      const seats = type.classSize ?? 0;
      const rules = ctx?.rules ?? {
        minHoursInAdvance: type.minHoursInAdvance ?? account!.minHoursInAdvance,
        maxDaysInAdvance: type.maxDaysInAdvance ?? account!.maxDaysInAdvance,
      };
      const seatsTaken = taken.get(session.id) ?? 0;
      const unavailable = type.active
        ? checkSession({ start: session.startsAt.getTime(), seats, taken: seatsTaken }, rules, now)
        : 'not_available';
      open.push({ session, type, calendar, seats, taken: seatsTaken, unavailable });
    }
    return this.withinLimits(open, types, window);
  }

  /** A session on a day or week full for its type's or calendar's booking limits takes no one. */
  private async withinLimits(
    open: OpenSession[],
    types: SlotType[],
    window: Span,
  ): Promise<OpenSession[]> {
    const filters = new Map<number, Awaited<ReturnType<typeof limitFilter>>>();
    for (const type of types) {
      const mine = open.filter((s) => s.type.id === type.id);
      const calendars = [...new Map(mine.map((s) => [s.calendar.id, s.calendar])).values()];
      if (calendars.length > 0)
        filters.set(type.id, await limitFilter(this.manager, { type, calendars }, window));
    }
    return open.map((s) =>
      s.unavailable || (filters.get(s.type.id)?.(s.calendar, startOf(s)) ?? true)
        ? s
        : { ...s, unavailable: 'not_available' as const },
    );
  }

  /** The live class types asked for (one, or all the account's). */
  private async classTypes(
    account: Account,
    typeId: number | undefined,
  ): Promise<AppointmentType[]> {
    if (typeId === undefined) return liveClassTypes(this.manager, account.id);
    const type = await namedType(this.manager, account.id, typeId);
    if (type.kind !== 'class') throw new NotAClassError(type.id);
    return [type];
  }
}

/** Free starts, each with how many calendars (or class seats) can take it. */
type Starts = Map<number, number>;

function startOf(open: OpenSession): number {
  return open.session.startsAt.getTime();
}

/** The local dates (in `zone`) of a month's starts, in order. */
function datesOf(zone: string, month: Span, starts: Map<number, number>): AvailableDate[] {
  const clock = zoneClock(zone, month.from, month.until);
  const days = new Set<number>();
  for (const start of starts.keys()) days.add(clock.dayOf(start));
  return [...days].sort((a, b) => a - b).map((day) => ({ date: clock.dateOfDay(day) }));
}

/** The starts of `counts` within `day`, in order, as `/times` lists them in `zone`. */
function timesOf(zone: string, day: Span, counts: Starts): AvailableTime[] {
  const clock = zoneClock(zone, day.from, day.until);
  return [...counts.keys()]
    .filter((start) => start >= day.from && start < day.until)
    .sort((a, b) => a - b)
    .map((start) => ({ time: clock.format(start), slotsAvailable: counts.get(start)! }));
}

/** The open sessions' starts, each with the seats left at it (summed over its calendars). */
function seatCounts(open: OpenSession[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const s of open)
    if (!s.unavailable) counts.set(startOf(s), (counts.get(startOf(s)) ?? 0) + s.seats - s.taken);
  return counts;
}

function displayZone(account: Account, ctx: SlotContext, timezone: string | undefined): string {
  if (timezone !== undefined) return assertTimezone(timezone);
  return ctx.calendars.length === 1 ? ctx.calendars[0].timezone : account.timezone;
}
