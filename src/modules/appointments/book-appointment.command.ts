import { Command } from '@nestjs/cqrs';
import type { Account } from '../accounts';
import type { AppointmentView } from './appointment.view';
import type { BookAppointmentRequest, BookingMode } from './book-appointment.requests';

export class BookAppointmentCommand extends Command<AppointmentView> {
  constructor(
    readonly account: Account,
    readonly request: BookAppointmentRequest,
    readonly mode: BookingMode,
    /** The `Idempotency-Key` header as sent (undefined without one): checked by the booking. */
    readonly idempotencyKey?: unknown,
  ) {
    super();
  }
}
