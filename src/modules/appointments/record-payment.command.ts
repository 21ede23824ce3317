import { Command } from '@nestjs/cqrs';
import type { NewPayment, PaymentView } from '../certificates';

/** `POST /appointments/{id}/payments`: a payment or a refund, as the owner or a partner app records it. */
export class RecordPaymentCommand extends Command<PaymentView> {
  constructor(
    readonly accountId: number,
    readonly appointmentId: number,
    readonly payment: NewPayment,
  ) {
    super();
  }
}
