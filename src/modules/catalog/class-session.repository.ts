import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { DataSource, In } from 'typeorm';
import { TenantRepository } from '../../common/database/tenant-repository';
import { BusyKind } from './calendar-busy-kinds';
import { markBusyKind } from './calendar.repository';
import { ClassSession } from './class-session.entity';

@Injectable()
export class ClassSessionRepository extends TenantRepository<ClassSession> {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource, ClassSession);
  }

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
