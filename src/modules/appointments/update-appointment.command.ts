import { Command } from '@nestjs/cqrs';
import type { Account } from '../accounts';
import type { AppointmentView } from './appointment.view';
import type { UpdateAppointmentRequest } from './update-appointment.requests';

export class UpdateAppointmentCommand extends Command<AppointmentView> {
  constructor(
    readonly account: Account,
    readonly appointmentId: number,
    readonly request: UpdateAppointmentRequest,
    readonly mode: { admin: boolean },
  ) {
    super();
  }
}
