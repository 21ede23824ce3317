import { type EntityManager, In, IsNull } from 'typeorm';
import { findReferenced } from '../../common/database/tenant-rows';
import {
  AppointmentType,
  Calendar,
  ClassSession,
  InvalidAppointmentTypeError,
  InvalidCalendarError,
} from '../catalog';
import type { Span } from './working-time';

/*
 * What availability reads of the catalog besides a slot context (slot-context.repository.ts): class
 * sessions, the calendars they are on, class types, calendars a request names.
 */

/** The class session of a type on a calendar at `start`, if there is one. */
export function sessionAt(
  tx: EntityManager,
  typeId: number,
  calendarId: number,
  start: number,
): Promise<ClassSession | null> {
  return tx.findOneBy(ClassSession, {
    appointmentTypeId: typeId,
    calendarId,
    startsAt: new Date(start),
  });
}

/** The sessions of these types (on these calendars, or any) starting in `window`, earliest first. */
export function sessionsIn(
  manager: EntityManager,
  typeIds: number[],
  calendarIds: number[] | undefined,
  window: Span,
): Promise<ClassSession[]> {
  return manager
    .createQueryBuilder(ClassSession, 's')
    .where('s.appointmentTypeId IN (:...typeIds)', { typeIds })
    .andWhere(calendarIds ? 's.calendarId IN (:...calendarIds)' : '1 = 1', { calendarIds })
    .andWhere('s.startsAt >= :from AND s.startsAt < :until', {
      from: new Date(window.from),
      until: new Date(window.until),
    })
    .orderBy('s.startsAt', 'ASC')
    .addOrderBy('s.id', 'ASC')
    .getMany();
}

/** The live calendars of these ids. */
export function liveCalendars(manager: EntityManager, ids: number[]): Promise<Calendar[]> {
  return manager.find(Calendar, { where: { id: In(ids), deletedAt: IsNull() } });
}

/** The account's live class types. */
export function liveClassTypes(
  manager: EntityManager,
  accountId: number,
): Promise<AppointmentType[]> {
  return manager.find(AppointmentType, {
    where: { accountId, kind: 'class', deletedAt: IsNull() },
  });
}

/** The type a request names: a live type of the account (`invalid_appointment_type`). */
export async function namedType(
  manager: EntityManager,
  accountId: number,
  id: number,
): Promise<AppointmentType> {
  const [type] = await findReferenced(
    manager,
    AppointmentType,
    accountId,
    [id],
    (id: number | string) => new InvalidAppointmentTypeError(id),
  );
  return type;
}

/** The calendars a request names: live calendars of the account (`invalid_calendar`). */
export function namedCalendars(
  manager: EntityManager,
  accountId: number,
  ids: readonly number[],
): Promise<Calendar[]> {
  return findReferenced(
    manager,
    Calendar,
    accountId,
    ids,
    (id: number | string) => new InvalidCalendarError(id),
  );
}
