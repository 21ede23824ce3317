import { Command } from '@nestjs/cqrs';
import type { Account } from '../accounts/account.entity';
import type { AppointmentView } from './appointment.view';
import type { BookAppointmentRequest, BookingMode } from './book-appointment.request';
import type { IdempotencyClaim } from './idempotency-keys';

export class BookAppointmentCommand extends Command<AppointmentView> {
  constructor(
    readonly account: Account,
    readonly request: BookAppointmentRequest,
    readonly mode: BookingMode,
    /** With an `Idempotency-Key`: recorded in the booking's transaction. */
    readonly idempotency?: IdempotencyClaim,
  ) {
    super();
  }
}
