import { AttributeError, ConflictError } from '../../common/errors/domain-error';
import { MAX_CENTS, formatCents } from '../../common/money/money';

/* Recording payments and refunds (POST /appointments/{id}/payments, POST /orders/{id}/payments). */

/** What a payment is recorded against, as its errors name it. */
export interface PaymentSubject {
  kind: 'appointment' | 'order';
  id: number;
}

const named = (subject: PaymentSubject) => `${subject.kind} "${subject.id}"`;

/** A refund (a negative amount) says why. */
export class RefundReasonRequiredError extends AttributeError(
  'required_reason',
  () => 'Attribute "reason" is required for a refund (a negative amount).',
) {}

/** The amount paid never goes below 0. */
export class RefundExceedsPaidError extends AttributeError(
  'refund_exceeds_paid',
  (refundCents: number, paidCents: number) =>
    `The refund of ${formatCents(-refundCents)} is more than the ${formatCents(paidCents)} paid.`,
) {}

/** The amount paid stays within what money columns hold (see MAX_CENTS). */
export class AmountPaidTooLargeError extends AttributeError(
  'invalid_amount',
  () => `The amount paid would be more than ${formatCents(MAX_CENTS)}.`,
) {}

/** An appointment or an order holds a bounded ledger (its list is answered whole). */
export class TooManyPaymentsError extends AttributeError(
  'too_many_payments',
  (subject: PaymentSubject, max: number) => `The ${named(subject)} already has ${max} payments.`,
) {}

/** One transaction id, one movement of money: reused otherwise, it is refused, not counted twice. */
export class TransactionIdReusedError extends ConflictError {
  constructor(transactionId: string, recordedOn: PaymentSubject, asked: PaymentSubject) {
    super(
      'transaction_id_reused',
      recordedOn.kind === asked.kind && recordedOn.id === asked.id
        ? `The transaction "${transactionId}" is already recorded on this ${asked.kind} with another amount or processor.`
        : `The transaction "${transactionId}" is already recorded on ${named(recordedOn)}.`,
    );
  }
}
