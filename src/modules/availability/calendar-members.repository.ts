import type { EntityManager } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import { BusyKind, markBusyKind } from '../catalog';

/*
 * A collective appointment's or hold's other calendars (calendar-member.entity.ts), written in its
 * transaction under every calendar's lock, each calendar's BusyKind bit first (markBusyKind).
 */

const TABLES = {
  appointment: { table: 'appointment_members', owner: 'appointment_id', kind: BusyKind.members },
  hold: { table: 'slot_hold_members', owner: 'hold_id', kind: BusyKind.heldMembers },
} as const;

/** The owner's member rows, one per calendar, over its busy span. */
export async function insertMembers(
  tx: EntityManager,
  of: keyof typeof TABLES,
  owner: { id: number; accountId: number; busyFrom: Date; busyUntil: Date },
  calendarIds: readonly number[],
): Promise<void> {
  if (calendarIds.length === 0) return;
  const { table, owner: column, kind } = TABLES[of];
  for (const calendarId of calendarIds) await markBusyKind(tx, kind, calendarId, owner.accountId);
  await queryPrepared(
    tx,
    `INSERT INTO ${table} (account_id, ${column}, calendar_id, busy_from, busy_until)
     VALUES ${calendarIds.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
    calendarIds.flatMap((calendarId) => [
      owner.accountId,
      owner.id,
      calendarId,
      owner.busyFrom,
      owner.busyUntil,
    ]),
  );
}

/** A collective appointment moved: its member rows replaced by `calendarIds`' over its new span. */
export async function replaceMembers(
  tx: EntityManager,
  appointment: { id: number; accountId: number; busyFrom: Date; busyUntil: Date },
  calendarIds: readonly number[],
): Promise<void> {
  await queryPrepared(
    tx,
    'DELETE FROM appointment_members WHERE account_id = ? AND appointment_id = ?',
    [appointment.accountId, appointment.id],
  );
  await insertMembers(tx, 'appointment', appointment, calendarIds);
}

/** Member rows of holds whose time has passed (their holds ended long ago); how many. */
export async function deletePastHoldMembers(
  tx: EntityManager,
  now: Date,
  limit: number,
): Promise<number> {
  const result = await queryPrepared<{ affectedRows: number }>(
    tx,
    'DELETE FROM slot_hold_members WHERE busy_until < ? LIMIT ?',
    [now, limit],
  );
  return result.affectedRows;
}
