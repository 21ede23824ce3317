import { Command } from '@nestjs/cqrs';
import type { Account } from '../accounts/account.entity';
import type { AppointmentView } from './appointment.view';
import type { BookAppointmentRequest, BookingMode } from './book-appointment.request';

export class BookAppointmentCommand extends Command<AppointmentView> {
  constructor(
    readonly account: Account,
    readonly request: BookAppointmentRequest,
    readonly mode: BookingMode,
  ) {
    super();
  }
}
