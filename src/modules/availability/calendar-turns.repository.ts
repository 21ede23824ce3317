import type { EntityManager } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import { weightOf } from '../catalog';
import { limitPeriods } from './booking-limits';
import { type CalendarTurn, balancedOrder, nextTurn, roundRobinOrder } from './calendar-assignment';
import type { SlotCalendar, SlotContext, SlotType } from './slot-context';

/*
 * What team assignment reads and writes (calendar-assignment.ts), always under the locks of the
 * calendars it concerns: a booking that names no calendar locks every calendar of its type before
 * it reads, so the calendars' locks are the type's lock for the choice; a booking on a named
 * calendar (or a hold's) writes only that calendar's turn, under that calendar's lock.
 */

type AssignedType = Pick<SlotType, 'id' | 'accountId' | 'assignment' | 'assignmentWeights'>;

/** Every calendar's last turn of a round-robin type. */
export async function readTurns(tx: EntityManager, type: AssignedType): Promise<CalendarTurn[]> {
  const rows = await queryPrepared<
    { calendarId: number; servedFrom: number; servedUntil: number; lastAssignedAt: Date }[]
  >(
    tx,
    `SELECT calendar_id AS calendarId, served_from AS servedFrom, served_until AS servedUntil,
            last_assigned_at AS lastAssignedAt
       FROM calendar_turns WHERE account_id = ? AND appointment_type_id = ?`,
    [type.accountId, type.id],
  );
  return rows.map((r) => ({
    calendarId: Number(r.calendarId),
    servedFrom: Number(r.servedFrom),
    servedUntil: Number(r.servedUntil),
    lastAssignedAt: new Date(r.lastAssignedAt).getTime(),
  }));
}

/** Live appointments of the type on each calendar in the ISO week of `start`, in its zone. */
export async function weekCounts(
  tx: EntityManager,
  type: AssignedType,
  calendars: readonly SlotCalendar[],
  start: number,
): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  const zones = new Map<string, number[]>();
  for (const c of calendars) zones.set(c.timezone, [...(zones.get(c.timezone) ?? []), c.id]);
  for (const [zone, ids] of zones) {
    const { week } = limitPeriods(start, zone);
    const rows = await queryPrepared<{ calendarId: number; n: number | string }[]>(
      tx,
      `SELECT calendar_id AS calendarId, COUNT(*) AS n FROM appointments
        WHERE account_id = ? AND appointment_type_id = ? AND starts_at >= ? AND starts_at < ?
          AND canceled = 0 AND calendar_id IN (?)
        GROUP BY calendar_id`,
      [type.accountId, type.id, new Date(week.from), new Date(week.until), ids],
    );
    for (const r of rows) counts.set(Number(r.calendarId), Number(r.n));
  }
  return counts;
}

/** The calendars in the order a booking at `start` that names none tries them, read locked. */
export async function assignedOrder(
  tx: EntityManager,
  ctx: Pick<SlotContext, 'type' | 'calendars'>,
  start: number,
): Promise<{ calendars: SlotCalendar[]; turns?: CalendarTurn[] }> {
  const { type, calendars } = ctx;
  if (calendars.length < 2 || type.assignment === 'first') return { calendars };
  if (type.assignment === 'balanced') {
    const counts = await weekCounts(tx, type, calendars, start);
    return { calendars: balancedOrder(calendars, counts, type.assignmentWeights) };
  }
  const turns = await readTurns(tx, type);
  return { calendars: roundRobinOrder(calendars, turns, type.assignmentWeights), turns };
}

/**
 * Records that the calendar took `taken` appointments of a round-robin type (a booking, a series,
 * a move onto it), under its lock; `turns`: as read by assignedOrder in the same transaction.
 */
export async function recordTurn(
  tx: EntityManager,
  type: AssignedType,
  calendarId: number,
  taken = 1,
  turns?: CalendarTurn[],
): Promise<void> {
  if (type.assignment !== 'round-robin' || taken === 0) return;
  const read = turns ?? (await readTurns(tx, type));
  const weight = weightOf(type.assignmentWeights, calendarId);
  const turn = nextTurn(read, calendarId, weight, taken, Date.now());
  await queryPrepared(
    tx,
    `INSERT INTO calendar_turns (account_id, appointment_type_id, calendar_id, served_from,
            served_until, last_assigned_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON DUPLICATE KEY UPDATE served_from = VALUES(served_from),
            served_until = VALUES(served_until), last_assigned_at = VALUES(last_assigned_at)`,
    [
      type.accountId,
      type.id,
      calendarId,
      turn.servedFrom,
      turn.servedUntil,
      new Date(turn.lastAssignedAt),
    ],
  );
}
