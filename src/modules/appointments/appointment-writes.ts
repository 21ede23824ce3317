import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { findOwned } from '../../common/database/tenant-rows';
import { UnitOfWork } from '../../common/database/unit-of-work';
import type { DomainEvent } from '../../common/outbox/domain-event';
import { Appointment, CalendarLocks } from '../availability';
import type { AppointmentView } from './appointment.view';
import { AppointmentViews } from './appointment-views';

/** `?admin=true&noEmail=true` of a change. */
export interface ChangeMode {
  admin: boolean;
  noEmail: boolean;
}

/**
 * How booking and the changes of a booked appointment (update, cancel, reschedule) write: one
 * transaction, its events recorded in the outbox inside it and published once it committed, so that
 * nothing leaves the process before the commit.
 */
@Injectable()
export class AppointmentWrites {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly locks: CalendarLocks,
    private readonly unitOfWork: UnitOfWork,
    private readonly views: AppointmentViews,
  ) {}

  /**
   * Runs `work` in one transaction, whole again when InnoDB gave up on a lock; the events it names
   * are recorded with what it wrote. Transactions run at READ COMMITTED (every connection's level,
   * see useReadCommitted).
   */
  transact<T>(
    accountId: number,
    work: (tx: EntityManager) => Promise<{ result: T; events: DomainEvent[] }>,
  ): Promise<T> {
    return this.unitOfWork.run(accountId, async (tx, emit) => {
      const { result, events } = await work(tx);
      emit(...events);
      return result;
    });
  }

  /** The account's appointment: 404, or 403 for another account's (before any attribute error). */
  find(accountId: number, id: number): Promise<Appointment> {
    return findOwned(this.dataSource.getRepository(Appointment), accountId, id);
  }

  /**
   * Changes a booked appointment in one transaction: the calendars it takes time from or gives time
   * to are locked (ascending id), then its row is read again FOR UPDATE (two changes of one
   * appointment run one after the other); `change` checks its rules on the row as locked, writes it
   * and names its events. Answers the appointment as it now is.
   */
  async change(
    accountId: number,
    id: number,
    calendarIds: number[],
    change: (tx: EntityManager, appointment: Appointment) => Promise<DomainEvent[]>,
  ): Promise<AppointmentView> {
    const appointment = await this.onLocked(accountId, id, calendarIds, async (tx, locked) => ({
      result: locked,
      events: await change(tx, locked),
    }));
    const [view] = await this.views.render([appointment]);
    return view;
  }

  /**
   * The transaction of `change` (calendars, then the appointment's row, locked) for a change that
   * answers something else than the appointment: `work` returns it with the events it names.
   */
  onLocked<T>(
    accountId: number,
    id: number,
    calendarIds: number[],
    work: (
      tx: EntityManager,
      appointment: Appointment,
    ) => Promise<{ result: T; events: DomainEvent[] }>,
  ): Promise<T> {
    return this.transact(accountId, async (tx) => {
      await this.locks.lock(tx, calendarIds);
      const locked = await findOwned(tx.getRepository(Appointment), accountId, id, {
        forUpdate: true,
      });
      return work(tx, locked);
    });
  }
}
