import { Command } from '@nestjs/cqrs';
import type { Account } from '../accounts';
import type { ChangeMode } from './appointment-writes';
import type { AppointmentView } from './appointment.view';
import type { RescheduleAppointmentRequest } from './reschedule-appointment.request';

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
