import type { EntityManager } from 'typeorm';
import { type LimitIgnores, withinLimits } from './booking-limits';
import { busyWindow } from './busy-time';
import type { CalendarTurn } from './calendar-assignment';
import { readSeatsTaken } from './busy-time.repository';
import { lockResources } from './resource-usage.repository';
import { sessionAt } from './slot-context.repository';
import { type SlotCalendar, type SlotContext, scheduleOf } from './slot-context';
import { NotAvailableError } from './availability.errors';
import { type SlotRules, advanceWindow, checkSession, checkStart } from './slot-engine';
import type { Span } from './working-time';

/* Where a booking or a move goes, asked under the calendars' locks (it holds to the commit). */

/** Refuses a start outside the type's advance window (`datetime` as the client sent it). */
export function assertInAdvanceWindow(
  rules: Pick<SlotRules, 'minHoursInAdvance' | 'maxDaysInAdvance'>,
  start: number,
  datetime: string,
  now: number,
): void {
  const { earliest, latest } = advanceWindow(rules, now);
  if (start < earliest) throw new NotAvailableError('not_available_min_hours_in_advance', datetime);
  if (start > latest) throw new NotAvailableError('not_available_max_days_in_advance', datetime);
}

/** Where a booking goes: its calendar, and for a class the session it takes a seat of. */
export interface Placement {
  calendar: SlotCalendar;
  classId: number | null;
  /** A round-robin type's turns as read to choose the calendar (recordTurn then reads none). */
  turns?: CalendarTurn[];
  /** A collective type's other calendars, which it takes too (null for any other type). */
  members: SlotCalendar[] | null;
}

/**
 * An admin's booking or move: on the calendar named (a collective type's: with the others), in its
 * class session then if any. Its type's
 * resources are locked for its span, not checked (an admin may overbook): a client's check running
 * meanwhile must not miss its use.
 */
export async function adminPlacement(
  tx: EntityManager,
  ctx: SlotContext,
  start: number,
): Promise<Placement> {
  await lockResources(tx, ctx, busyWindow(ctx.rules, start));
  const [calendar, ...others] = ctx.calendars;
  const session =
    ctx.type.kind === 'class' ? await sessionAt(tx, ctx.type.id, calendar.id, start) : null;
  return { calendar, classId: session?.id ?? null, members: ctx.type.collective ? others : null };
}

/**
 * A collective type's calendars when every one can take `start` (the first the host); otherwise
 * the first calendar (in `ctx.calendars`' order: ascending id, or the type's assignment's) that can
 * take `start`, read under the calendars' locks: for a
 * service, by the slot engine on `busy` (read with the locks); for a class, a session with a free
 * seat (live holds take seats); either within the booking limits. `ignore`: the booking client's
 * own hold, or a moved appointment itself, which neither takes a seat nor counts toward a limit.
 */
export async function freeCalendar(
  tx: EntityManager,
  ctx: SlotContext,
  start: number,
  busy: Map<number, Span[]> | undefined,
  ignore: LimitIgnores = {},
  now = Date.now(),
): Promise<Placement | null> {
  if (ctx.type.kind === 'class') {
    const ignoreAppointments = ignore.appointmentId === undefined ? [] : [ignore.appointmentId];
    for (const calendar of ctx.calendars) {
      const session = await sessionAt(tx, ctx.type.id, calendar.id, start);
      if (!session) continue;
      const seatsTaken = await readSeatsTaken(tx, [session.id], ignoreAppointments, ignore.holdId);
      const taken = seatsTaken.get(session.id) ?? 0;
      const seats = ctx.type.classSize ?? 0;
      if (
        checkSession({ start, seats, taken }, ctx.rules, now) === null &&
        (await withinLimits(tx, ctx, calendar, start, ignore))
      )
        return { calendar, classId: session.id, members: null };
    }
    return null;
  }
  if (!busy) throw new Error('A service is checked on the busy time read with its locks');
  const free = async (calendar: SlotCalendar) =>
    checkStart(scheduleOf(calendar, busy), ctx.rules, start, now) === null &&
    (await withinLimits(tx, ctx, calendar, start, ignore));
  if (ctx.type.collective) {
    // Every calendar together, the first the host: all free, or none takes it.
    for (const calendar of ctx.calendars) if (!(await free(calendar))) return null;
    const [host, ...members] = ctx.calendars;
    return host ? { calendar: host, classId: null, members } : null;
  }
  for (const calendar of ctx.calendars)
    if (await free(calendar)) return { calendar, classId: null, members: null };
  return null;
}
