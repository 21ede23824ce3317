import type { EntityManager } from 'typeorm';
import { withinLimits } from './booking-limits';
import { readSeatsTaken } from './busy-time.repository';
import { sessionAt } from './slot-context.repository';
import { type SlotCalendar, type SlotContext, scheduleOf } from './slot-context';
import { NotAvailableError } from './availability.errors';
import { type SlotRules, advanceWindow, checkSession, checkStart } from './slot-engine';
import type { Span } from './working-time';

/*
 * Where a booking or a move goes, asked under the calendars' locks so that the answer holds until
 * the commit.
 */

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
}

/**
 * Where an admin books or moves an appointment: on the calendar named (the context's one), in the
 * class session it has then, if any (an admin may book outside the sessions).
 */
export async function adminPlacement(
  tx: EntityManager,
  ctx: SlotContext,
  start: number,
): Promise<Placement> {
  const calendar = ctx.calendars[0];
  const session =
    ctx.type.kind === 'class' ? await sessionAt(tx, ctx.type.id, calendar.id, start) : null;
  return { calendar, classId: session?.id ?? null };
}

/**
 * The first calendar (ascending id) that can take `start`, read under the calendars' locks: for a
 * service, by the slot engine on `busy` (read with the locks); for a class, a session with a free
 * seat (live holds take seats); either within the booking limits. `ignoreHoldId`: the booking
 * client's own hold, which neither takes a seat nor counts toward a limit for them.
 */
export async function freeCalendar(
  tx: EntityManager,
  ctx: SlotContext,
  start: number,
  busy: Map<number, Span[]> | undefined,
  ignoreHoldId?: number,
): Promise<Placement | null> {
  const now = Date.now();
  if (ctx.type.kind === 'class') {
    for (const calendar of ctx.calendars) {
      const session = await sessionAt(tx, ctx.type.id, calendar.id, start);
      if (!session) continue;
      const taken = (await readSeatsTaken(tx, [session.id], [], ignoreHoldId)).get(session.id) ?? 0;
      const seats = ctx.type.classSize ?? 0;
      if (
        checkSession({ start, seats, taken }, ctx.rules, now) === null &&
        (await withinLimits(tx, ctx, calendar, start, { holdId: ignoreHoldId }))
      )
        return { calendar, classId: session.id };
    }
    return null;
  }
  if (!busy) throw new Error('A service is checked on the busy time read with its locks');
  for (const calendar of ctx.calendars) {
    const schedule = scheduleOf(calendar, busy);
    if (
      checkStart(schedule, ctx.rules, start, now) === null &&
      (await withinLimits(tx, ctx, calendar, start, { holdId: ignoreHoldId }))
    )
      return { calendar, classId: null };
  }
  return null;
}
