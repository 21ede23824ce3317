import type { EntityManager } from 'typeorm';
import { Appointment } from '../appointments/appointment.entity';
import { AppointmentType } from '../catalog/appointment-type.entity';
import { ClassSession } from '../catalog/class-session.entity';
import { Block } from './block.entity';
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
  const appointments = manager
    .createQueryBuilder(Appointment, 'a')
    .select(['a.calendarId', 'a.busyFrom', 'a.busyUntil'])
    .where('a.calendarId IN (:...calendarIds)', { calendarIds })
    .andWhere('a.busyFrom >= :lower AND a.busyFrom < :until', {
      lower: new Date(window.from - MAX_BUSY_SPAN_MINUTES * MINUTE),
      until,
    })
    .andWhere('a.busyUntil > :from AND a.canceled = 0', { from });
  if (ignoreAppointmentIds.length > 0)
    appointments.andWhere('a.id NOT IN (:...ignoreAppointmentIds)', { ignoreAppointmentIds });
  const [appointmentRows, blocks, sessions] = await Promise.all([
    appointments.getMany(),
    // Blocks can be long (a holiday), so no lower bound on their start: the few ending later are read.
    manager
      .createQueryBuilder(Block, 'b')
      .select(['b.calendarId', 'b.startsAt', 'b.endsAt'])
      .where('b.calendarId IN (:...calendarIds) AND b.endsAt > :from AND b.startsAt < :until', {
        calendarIds,
        from,
        until,
      })
      .getMany(),
    manager
      .createQueryBuilder(ClassSession, 's')
      .innerJoin(AppointmentType, 't', 't.id = s.appointmentTypeId AND t.deletedAt IS NULL')
      .select(['s.calendarId AS calendarId', 's.startsAt AS startsAt', 't.duration AS duration'])
      .where('s.calendarId IN (:...calendarIds)', { calendarIds })
      .andWhere('s.startsAt >= :lower AND s.startsAt < :until', {
        lower: new Date(window.from - MAX_APPOINTMENT_MINUTES * MINUTE),
        until,
      })
      .getRawMany<{ calendarId: number; startsAt: Date; duration: number }>(),
  ]);
  for (const a of appointmentRows)
    busy.get(a.calendarId)!.push({ from: a.busyFrom.getTime(), until: a.busyUntil.getTime() });
  for (const b of blocks)
    busy.get(b.calendarId)!.push({ from: b.startsAt.getTime(), until: b.endsAt.getTime() });
  for (const s of sessions) {
    const start = new Date(s.startsAt).getTime();
    busy.get(s.calendarId)!.push({ from: start, until: start + s.duration * MINUTE });
  }
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
