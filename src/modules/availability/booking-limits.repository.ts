import type { EntityManager } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import { lockRows } from '../../common/database/row-locks';
import { DAY } from '../../common/time/durations';
import type { LimitIgnores } from './booking-limits';
import type { Span } from './working-time';

/**
 * Live appointments and holds of a type, or of a calendar, starting in a period: a calendar's
 * include the collective appointments it is a member of (docs/team-scheduling.md).
 */
const COUNT_BY = {
  type: `SELECT
      (SELECT COUNT(*) FROM appointments a
        WHERE a.appointment_type_id = ? AND a.starts_at >= ? AND a.starts_at < ? AND a.canceled = 0
          AND a.id <> ?)
    + (SELECT COUNT(*) FROM slot_holds h
        WHERE h.appointment_type_id = ? AND h.starts_at >= ? AND h.starts_at < ?
          AND h.expires_at > ? AND h.id <> ?) AS n`,
  // busy_from is at most a day (the longest padding) before the start: both index ranges bounded.
  calendar: `SELECT
      (SELECT COUNT(*) FROM appointments a
        WHERE a.calendar_id = ? AND a.busy_from >= ? AND a.busy_from < ?
          AND a.starts_at >= ? AND a.starts_at < ? AND a.canceled = 0 AND a.id <> ?)
    + (SELECT COUNT(*) FROM slot_holds h
        WHERE h.calendar_id = ? AND h.busy_from >= ? AND h.busy_from < ?
          AND h.starts_at >= ? AND h.starts_at < ? AND h.expires_at > ? AND h.id <> ?)
    + (SELECT COUNT(*) FROM appointment_members m
         JOIN appointments ma ON ma.id = m.appointment_id AND ma.canceled = 0
        WHERE m.calendar_id = ? AND m.busy_from >= ? AND m.busy_from < ?
          AND ma.starts_at >= ? AND ma.starts_at < ? AND ma.id <> ?)
    + (SELECT COUNT(*) FROM slot_hold_members hm
         JOIN slot_holds mh ON mh.id = hm.hold_id AND mh.expires_at > ?
        WHERE hm.calendar_id = ? AND hm.busy_from >= ? AND hm.busy_from < ?
          AND mh.starts_at >= ? AND mh.starts_at < ? AND mh.id <> ?) AS n`,
};

/** How many live appointments and holds of a type, or of a calendar, start in `period`. */
export async function countIn(
  tx: EntityManager,
  of: 'type' | 'calendar',
  id: number,
  period: Span,
  { holdId = 0, appointmentId = 0 }: LimitIgnores,
): Promise<number> {
  const from = new Date(period.from);
  const until = new Date(period.until);
  const now = new Date();
  const parameters =
    of === 'type'
      ? [id, from, until, appointmentId, id, from, until, now, holdId]
      : [
          ...[id, new Date(period.from - DAY), until, from, until, appointmentId],
          ...[id, new Date(period.from - DAY), until, from, until, now, holdId],
          ...[id, new Date(period.from - DAY), until, from, until, appointmentId],
          ...[now, id, new Date(period.from - DAY), until, from, until, holdId],
        ];
  const [row] = await queryPrepared<{ n: string | number }[]>(tx, COUNT_BY[of], parameters);
  return Number(row.n);
}

/** Locks the type's row (written: lockRows): bookings of a type with a limit, on any calendar, queue on it. */
export async function lockType(tx: EntityManager, typeId: number): Promise<void> {
  await lockRows(tx, 'appointment_types', [typeId]);
}

/** A calendar's collective appointments and holds as a member (startsIn's, by calendar only). */
const memberStarts = (pageHolds: boolean) => `UNION ALL
     SELECT ma.starts_at AS startsAt FROM appointment_members m
       JOIN appointments ma ON ma.id = m.appointment_id AND ma.canceled = 0
      WHERE m.calendar_id = ? AND m.busy_from >= ? AND m.busy_from < ?
        AND ma.starts_at >= ? AND ma.starts_at < ?
     UNION ALL
     SELECT mh.starts_at AS startsAt FROM slot_hold_members hm
       JOIN slot_holds mh ON mh.id = hm.hold_id AND mh.expires_at > ?
        ${pageHolds ? '' : "AND mh.origin <> 'page'"}
      WHERE hm.calendar_id = ? AND hm.busy_from >= ? AND hm.busy_from < ?
        AND mh.starts_at >= ? AND mh.starts_at < ?`;

/** The starts of live appointments and holds of a type or calendar in `span` (`pageHolds`: too). */
export async function startsIn(
  manager: EntityManager,
  column: 'appointment_type_id' | 'calendar_id',
  id: number,
  span: Span,
  pageHolds = true,
): Promise<number[]> {
  const from = new Date(span.from);
  const until = new Date(span.until);
  // By calendar, the index is (calendar_id, busy_from): busy_from is at most a day before the start.
  const bounded = column === 'calendar_id' ? 'AND busy_from >= ? AND busy_from < ?' : '';
  const bounds = column === 'calendar_id' ? [new Date(span.from - DAY), until] : [];
  const rows = await queryPrepared<{ startsAt: Date }[]>(
    manager,
    `SELECT starts_at AS startsAt FROM appointments
      WHERE ${column} = ? ${bounded} AND starts_at >= ? AND starts_at < ? AND canceled = 0
     UNION ALL
     SELECT starts_at AS startsAt FROM slot_holds
      WHERE ${column} = ? ${bounded} AND starts_at >= ? AND starts_at < ? AND expires_at > ?
        ${pageHolds ? '' : "AND origin <> 'page'"}
     ${column === 'calendar_id' ? memberStarts(pageHolds) : ''}`,
    [
      ...[id, ...bounds, from, until, id, ...bounds, from, until, new Date()],
      ...(column === 'calendar_id'
        ? [id, ...bounds, from, until, new Date(), id, ...bounds, from, until]
        : []),
    ],
  );
  return rows.map((r) => new Date(r.startsAt).getTime());
}
