import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AppointmentCanceledEvent, eventPayload } from './appointment-events';
import { AlreadyCanceledError, assertClientMayChange } from './appointment.errors';
import { AppointmentExtras } from './appointment-extras';
import type { AppointmentView } from './appointment.view';
import { AppointmentChanges } from './appointment-changes';
import { AppointmentRepository } from './appointment.repository';
import { CancelAppointmentCommand } from './cancel-appointment.command';

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
      appointment.canceled = true;
      appointment.canceledAt = now;
      appointment.sequence += 1;
      appointment.cancelNote = request.cancelNote ?? null;
      if (mode.admin && request.noShow !== undefined) appointment.noShow = request.noShow;
      appointment.updatedAt = now;
      await this.appointments.save(appointment, tx);
      await this.extras.giveBackUse(tx, appointment);
      const payload = eventPayload(appointment, mode.noEmail);
      return [new AppointmentCanceledEvent(appointment.accountId, payload)];
    });
  }
}
