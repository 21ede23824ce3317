import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AppointmentCanceledEvent, eventsOf } from './appointment-events';
import { AlreadyCanceledError, assertClientMayChange } from './appointment.errors';
import { AppointmentParts } from './appointment-parts';
import type { AppointmentView } from './appointment.view';
import { AppointmentWrites } from './appointment-writes';
import { CancelAppointmentCommand } from './cancel-appointment.command';

/**
 * Cancels an appointment in one transaction, its row locked (two cancels of one appointment: one
 * wins, the other is `already_canceled`): the row is marked (which frees its time and seat for
 * availability), a package's use is given back, `canceled` and `changed` are recorded.
 */
@CommandHandler(CancelAppointmentCommand)
export class CancelAppointmentHandler implements ICommandHandler<CancelAppointmentCommand> {
  constructor(
    private readonly writes: AppointmentWrites,
    private readonly parts: AppointmentParts,
  ) {}

  execute({
    account,
    appointmentId,
    request,
    mode,
  }: CancelAppointmentCommand): Promise<AppointmentView> {
    // No calendar is locked: canceling gives time back, it takes none.
    return this.writes.change(account.id, appointmentId, [], async (tx, appointment) => {
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
      await tx.save(appointment);
      await this.parts.giveBackUse(tx, appointment);
      return eventsOf(AppointmentCanceledEvent, appointment, mode.noEmail);
    });
  }
}
