import { classViewSchema, str, strEnum, type ViewType } from '../../common/openapi/view-schema';
import { formatCents } from '../../common/money/money';
import { formatInZone } from '../../common/time/datetimes';
import { PAYMENT_PROCESSORS, type Payment } from './payment.entity';

/** A payment as the reference shows it (`GET /appointments/{id}/payments`), plus `reason`. */
export const PAYMENT_VIEW = classViewSchema('PaymentView', {
  transactionID: str(
    'ch_3PqL2xJ32o4TcWuA',
    "The processor's transaction id, or the one this service made up (`pay_…`) when none was given.",
  ),
  created: str(
    '2026-03-03T14:30:00-0500',
    'When it was recorded: `YYYY-MM-DDThh:mm:ss+hhmm`, in the zone the appointment is shown in ' +
      "(its `timezone`); for an order, the account's.",
  ),
  processor: strEnum(PAYMENT_PROCESSORS, 'card-terminal'),
  amount: str('25.00', 'Money with two decimals; a refund is negative.'),
  reason: str('', 'Why it was recorded (always given for a refund); "" when not given.'),
});

export type PaymentView = ViewType<typeof PAYMENT_VIEW>;

export function toPaymentView(payment: Payment, zone: string): PaymentView {
  return {
    transactionID: payment.transactionId,
    created: formatInZone(payment.createdAt, zone),
    processor: payment.processor,
    amount: formatCents(payment.amountCents),
    reason: payment.reason,
  };
}
