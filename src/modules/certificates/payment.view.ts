import { ApiProperty } from '@nestjs/swagger';
import { formatCents } from '../../common/money/money';
import { formatInZone } from '../../common/time/datetimes';
import { PAYMENT_PROCESSORS, type Payment, type PaymentProcessor } from './payment.entity';

/**
 * A payment transaction, in the reference's shape (`GET /appointments/{id}/payments`), plus this
 * service's `reason`.
 */
export class PaymentView {
  @ApiProperty({
    description:
      "The processor's transaction id, or the one this service made up (`pay_…`) when none was given.",
    example: 'ch_3PqL2xJ32o4TcWuA',
  })
  transactionID!: string;

  @ApiProperty({
    description:
      'When it was recorded: `YYYY-MM-DDThh:mm:ss+hhmm`, in the zone the appointment is shown in ' +
      "(its `timezone`); for an order, the account's.",
    example: '2026-03-03T14:30:00-0500',
  })
  created!: string;

  @ApiProperty({ enum: PAYMENT_PROCESSORS, example: 'card-terminal' })
  processor!: PaymentProcessor;

  @ApiProperty({
    description: 'Money with two decimals; a refund is negative.',
    example: '25.00',
  })
  amount!: string;

  @ApiProperty({
    description: 'Why it was recorded (always given for a refund); "" when not given.',
    example: '',
  })
  reason!: string;
}

export function toPaymentView(payment: Payment, zone: string): PaymentView {
  return {
    transactionID: payment.transactionId,
    created: formatInZone(payment.createdAt, zone),
    processor: payment.processor,
    amount: formatCents(payment.amountCents),
    reason: payment.reason,
  };
}
