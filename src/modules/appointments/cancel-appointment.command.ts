import { Command } from '@nestjs/cqrs';
import type { Account } from '../accounts';
import type { ChangeMode } from './appointment-changes';
import type { AppointmentView } from './appointment.view';
import type { CancelAppointmentRequest } from './cancel-appointment.requests';

export class CancelAppointmentCommand extends Command<AppointmentView> {
  constructor(
    readonly account: Account,
    readonly appointmentId: number,
    readonly request: CancelAppointmentRequest,
    readonly mode: ChangeMode,
  ) {
    super();
  }
}
