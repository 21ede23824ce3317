import { Injectable } from '@nestjs/common';
import { Command } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { UnitOfWork } from '../../common/database/unit-of-work';
import type { DomainEvent } from '../../common/outbox/domain-event';
import type { Account } from '../accounts';
import { type Appointment, CalendarLocks } from '../availability';
import { AppointmentRepository } from './appointment.repository';
import type { AppointmentView } from './appointment.view';
import { AppointmentRenderer } from './appointment-renderer';

/** `?admin=true&noEmail=true` of a change. */
export interface ChangeMode {
  admin: boolean;
  noEmail: boolean;
}

/** A change of a booked appointment, asked by `account` (the principal's, as authenticated). */
export abstract class AppointmentChangeCommand<
  Request,
  Mode = ChangeMode,
> extends Command<AppointmentView> {
  constructor(
    readonly account: Account,
    readonly appointmentId: number,
    readonly request: Request,
    readonly mode: Mode,
  ) {
    super();
  }
}

/**
 * How booking and the changes of an appointment write: one UnitOfWork, its events recorded in the
 * outbox inside it; a change locks the calendars it touches, then the appointment's row.
 */
@Injectable()
export class AppointmentChanges {
  constructor(
    private readonly appointments: AppointmentRepository,
    private readonly locks: CalendarLocks,
    private readonly unitOfWork: UnitOfWork,
    private readonly views: AppointmentRenderer,
  ) {}

  /** `work` in one transaction (READ COMMITTED), run again on a lock conflict, with its events. */
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
   * Changes an appointment in one transaction: the calendars it takes time from or gives to locked
   * (ascending id), then its row read again FOR UPDATE (two changes of it run one after the other);
   * `change` checks its rules on the row as locked, writes it and names its events.
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
    return this.views.renderOne(appointment);
  }

  /** The transaction of `change`, for a change that answers something else (`work`'s result). */
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
