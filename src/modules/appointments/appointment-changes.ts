import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { UnitOfWork } from '../../common/database/unit-of-work';
import type { DomainEvent } from '../../common/outbox/domain-event';
import { type Appointment, CalendarLocks } from '../availability';
import { AppointmentRepository } from './appointment.repository';
import type { AppointmentView } from './appointment.view';
import { AppointmentRenderer } from './appointment-renderer';

/** `?admin=true&noEmail=true` of a change. */
export interface ChangeMode {
  admin: boolean;
  noEmail: boolean;
}

/**
 * How booking and the changes of a booked appointment (update, cancel, reschedule, a payment) write:
 * one UnitOfWork, its events recorded in the outbox inside it; a change locks the calendars it
 * touches, then the appointment's row.
 */
@Injectable()
export class AppointmentChanges {
  constructor(
    private readonly appointments: AppointmentRepository,
    private readonly locks: CalendarLocks,
    private readonly unitOfWork: UnitOfWork,
    private readonly views: AppointmentRenderer,
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
      const locked = await this.appointments.find(accountId, id, { forUpdate: true, tx });
      return work(tx, locked);
    });
  }
}
