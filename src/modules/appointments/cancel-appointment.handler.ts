import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import type { Appointment } from '../availability';
import { AppointmentCanceledEvent, eventPayload } from './appointment-events';
import { AlreadyCanceledError, assertClientMayChange } from './appointment.errors';
import { AppointmentExtras } from './appointment-extras';
import type { AppointmentView } from './appointment.view';
import { AppointmentChanges, type ChangeMode } from './appointment-changes';
import { AppointmentRepository } from './appointment.repository';
import { CancelAppointmentCommand } from './cancel-appointment.command';
import type { CancelAppointmentRequest } from './cancel-appointment.requests';

/** Cancels in one transaction, the row locked (of two cancels, one is `already_canceled`). */
@CommandHandler(CancelAppointmentCommand)
export class CancelAppointmentHandler implements ICommandHandler<CancelAppointmentCommand> {
  constructor(
    private readonly changes: AppointmentChanges,
    private readonly extras: AppointmentExtras,
    private readonly appointments: AppointmentRepository,
  ) {}

  execute(command: CancelAppointmentCommand): Promise<AppointmentView> {
    const { account, appointmentId, request, mode } = command;
    // No calendar is locked: canceling gives time back, it takes none.
    return this.changes.change(account.id, appointmentId, [], async (tx, appointment) => {
      if (appointment.canceled) throw new AlreadyCanceledError(appointment.id);
      const now = new Date();
      if (!mode.admin)
        assertClientMayChange('cancel', appointment, account.clientChangeMinHours, now.getTime());
      return [await cancelRow(tx, this.appointments, this.extras, appointment, request, mode, now)];
    });
  }
}

/** Cancels the locked row (its time and seat freed, a package's use given back): its event. */
export async function cancelRow(
  tx: EntityManager,
  appointments: AppointmentRepository,
  extras: AppointmentExtras,
  appointment: Appointment,
  request: CancelAppointmentRequest,
  mode: ChangeMode,
  now: Date,
): Promise<AppointmentCanceledEvent> {
  appointment.canceled = true;
  appointment.canceledAt = now;
  appointment.sequence += 1;
  appointment.cancelNote = request.cancelNote ?? null;
  if (mode.admin && request.noShow !== undefined) appointment.noShow = request.noShow;
  appointment.updatedAt = now;
  await appointments.save(appointment, tx);
  await extras.giveBackUse(tx, appointment);
  return new AppointmentCanceledEvent(
    appointment.accountId,
    eventPayload(appointment, mode.noEmail),
  );
}
