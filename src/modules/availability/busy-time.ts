import type { EntityManager } from 'typeorm';
import { Appointment } from '../appointments/appointment.entity';
import type { Span } from './working-time';

const MINUTE = 60_000;

/** The longest an appointment lasts, addons included: a day. Booking refuses longer ones. */
export const MAX_APPOINTMENT_MINUTES = 1440;

/**
 * The longest time an appointment keeps its calendar busy: its length and both paddings (each at
 * most a day). It bounds the lower side of the appointments read for a range, so that the read uses
 * `idx_appointments_calendar_busy` on both sides and costs what the range holds, not the history.
 */
export const MAX_BUSY_SPAN_MINUTES = 3 * 1440;

/**
 * What keeps each calendar busy during `window`: non-canceled appointments (with their padding, minus
 * `ignoreAppointmentIds`), blocks, and the sessions of live class types on it (a class occupies its
 * calendar for the type's duration).
 */
export async function readBusyTime(
  manager: EntityManager,
  calendarIds: number[],
  window: Span,
  ignoreAppointmentIds: number[] = [],
): Promise<Map<number, Span[]>> {
  const busy = new Map<number, Span[]>(calendarIds.map((id) => [id, []]));
  if (calendarIds.length === 0 || window.from >= window.until) return busy;
  const from = new Date(window.from);
  const until = new Date(window.until);
  const ignore = ignoreAppointmentIds.length > 0 ? ignoreAppointmentIds : [0];
  // One round trip, each part on its index: appointments by (calendar_id, busy_from) between the
  // window's end and its start minus the longest busy span; blocks (which may be long: a holiday)
  // by (calendar_id, ends_at); sessions by (calendar_id, starts_at), a class lasting at most a day.
  const rows: { calendarId: number; busyFrom: Date; busyUntil: Date }[] = await manager.query(
    `SELECT a.calendar_id AS calendarId, a.busy_from AS busyFrom, a.busy_until AS busyUntil
       FROM appointments a
      WHERE a.calendar_id IN (?) AND a.busy_from >= ? AND a.busy_from < ? AND a.busy_until > ?
        AND a.canceled = 0 AND a.id NOT IN (?)
     UNION ALL
     SELECT b.calendar_id, b.starts_at, b.ends_at
       FROM blocks b
      WHERE b.calendar_id IN (?) AND b.ends_at > ? AND b.starts_at < ?
     UNION ALL
     SELECT s.calendar_id, s.starts_at, s.starts_at + INTERVAL t.duration MINUTE
       FROM classes s
       JOIN appointment_types t ON t.id = s.appointment_type_id AND t.deleted_at IS NULL
      WHERE s.calendar_id IN (?) AND s.starts_at >= ? AND s.starts_at < ?`,
    [
      calendarIds,
      new Date(window.from - MAX_BUSY_SPAN_MINUTES * MINUTE),
      until,
      from,
      ignore,
      calendarIds,
      from,
      until,
      calendarIds,
      new Date(window.from - MAX_APPOINTMENT_MINUTES * MINUTE),
      until,
    ],
  );
  for (const row of rows)
    busy.get(Number(row.calendarId))?.push({
      from: new Date(row.busyFrom).getTime(),
      until: new Date(row.busyUntil).getTime(),
    });
  return busy;
}

/** Seats taken in each session by non-canceled appointments (minus `ignoreAppointmentIds`). */
export async function readSeatsTaken(
  manager: EntityManager,
  sessionIds: number[],
  ignoreAppointmentIds: number[] = [],
): Promise<Map<number, number>> {
  const taken = new Map<number, number>(sessionIds.map((id) => [id, 0]));
  if (sessionIds.length === 0) return taken;
  const query = manager
    .createQueryBuilder(Appointment, 'a')
    .select('a.classId', 'classId')
    .addSelect('COUNT(*)', 'taken')
    .where('a.classId IN (:...sessionIds) AND a.canceled = 0', { sessionIds })
    .groupBy('a.classId');
  if (ignoreAppointmentIds.length > 0)
    query.andWhere('a.id NOT IN (:...ignoreAppointmentIds)', { ignoreAppointmentIds });
  for (const row of await query.getRawMany<{ classId: number; taken: string | number }>())
    taken.set(Number(row.classId), Number(row.taken));
  return taken;
}
