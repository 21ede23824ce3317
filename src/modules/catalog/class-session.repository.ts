import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { In } from 'typeorm';
import { AppointmentType } from './appointment-type.entity';
import { BusyKind } from './calendar-busy-kinds';
import { Calendar } from './calendar.entity';
import { markBusyKind } from './calendar.repository';
import { RepositoryOf } from '../../common/database/tenant-repository';
import { ClassSession } from './class-session.entity';
import { type ClassSessionView, toClassSessionView } from './class-session.view';

@Injectable()
export class ClassSessionRepository extends RepositoryOf(ClassSession) {
  /** The account's sessions by start, of the types and calendars given (all when not given). */
  listOf(
    accountId: number,
    filter: { appointmentTypeIds?: number[]; calendarIds?: number[] },
  ): Promise<ClassSession[]> {
    return this.rows().find({
      where: {
        accountId,
        ...(filter.appointmentTypeIds ? { appointmentTypeId: In(filter.appointmentTypeIds) } : {}),
        ...(filter.calendarIds ? { calendarId: In(filter.calendarIds) } : {}),
      },
      order: { startsAt: 'ASC', id: 'ASC' },
    });
  }

  /**
   * The sessions' views: each shows its type's duration and seats, its calendar's name and zone
   * (deleted ones too: the session still refers to them).
   */
  async views(sessions: readonly ClassSession[]): Promise<ClassSessionView[]> {
    if (sessions.length === 0) return [];
    const typeIds = In([...new Set(sessions.map((s) => s.appointmentTypeId))]);
    const calendarIds = In([...new Set(sessions.map((s) => s.calendarId))]);
    const [types, calendars] = await Promise.all([
      this.dataSource.manager.findBy(AppointmentType, { id: typeIds }),
      this.dataSource.manager.findBy(Calendar, { id: calendarIds }),
    ]);
    const typeById = new Map(types.map((t) => [t.id, t]));
    const calendarById = new Map(calendars.map((c) => [c.id, c]));
    return sessions.map((s) =>
      toClassSessionView(s, typeById.get(s.appointmentTypeId)!, calendarById.get(s.calendarId)!),
    );
  }

  exists(
    where: { appointmentTypeId: number; calendarId?: number; startsAt?: Date },
    tx: EntityManager,
  ): Promise<boolean> {
    return this.rows(tx).existsBy(where);
  }

  /** Inserts the session, its calendar's bit of busy time marked first (markBusyKind). */
  async insert(session: ClassSession, tx: EntityManager): Promise<ClassSession> {
    await markBusyKind(tx, BusyKind.sessions, session.calendarId, session.accountId);
    return this.rows(tx).save(session);
  }

  /** Removes the account's session (403 and 404 as `find`). */
  async remove(accountId: number, id: number, tx: EntityManager): Promise<void> {
    const session = await this.find(accountId, id, { tx });
    await this.rows(tx).delete({ id: session.id });
  }
}
