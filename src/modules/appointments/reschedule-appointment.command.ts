import { Command } from '@nestjs/cqrs';
import type { Account } from '../accounts';
import type { ChangeMode } from './appointment-changes';
import type { AppointmentView } from './appointment.view';
import type { RescheduleAppointmentRequest } from './reschedule-appointment.requests';

export class RescheduleAppointmentCommand extends Command<AppointmentView> {
  constructor(
    readonly account: Account,
    readonly appointmentId: number,
    readonly request: RescheduleAppointmentRequest,
    readonly mode: ChangeMode,
  ) {
    super();
  }
}
