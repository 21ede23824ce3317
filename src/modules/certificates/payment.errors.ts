import { ConflictError, InvalidAttributeError } from '../../common/errors/domain-error';
import { MAX_CENTS, formatCents } from '../../common/money/money';

/* Recording payments and refunds (POST /appointments/{id}/payments, POST /orders/{id}/payments). */

/** What a payment is recorded against, as its errors name it. */
export interface PaymentSubject {
  kind: 'appointment' | 'order';
  id: number;
}

const named = (subject: PaymentSubject) => `${subject.kind} "${subject.id}"`;

/** A refund (a negative amount) says why. */
export class RefundReasonRequiredError extends InvalidAttributeError {
  constructor() {
    super('required_reason', 'Attribute "reason" is required for a refund (a negative amount).');
  }
}

/** The amount paid never goes below 0. */
export class RefundExceedsPaidError extends InvalidAttributeError {
  constructor(refundCents: number, paidCents: number) {
    super(
      'refund_exceeds_paid',
      `The refund of ${formatCents(-refundCents)} is more than the ${formatCents(paidCents)} paid.`,
    );
  }
}

/** The amount paid stays within what money columns hold (see MAX_CENTS). */
export class AmountPaidTooLargeError extends InvalidAttributeError {
  constructor() {
    super('invalid_amount', `The amount paid would be more than ${formatCents(MAX_CENTS)}.`);
  }
}

/** An appointment or an order holds a bounded ledger (its list is answered whole). */
export class TooManyPaymentsError extends InvalidAttributeError {
  constructor(subject: PaymentSubject, max: number) {
    super('too_many_payments', `The ${named(subject)} already has ${max} payments.`);
  }
}

/**
 * A transaction id names one movement of money: sent again with another amount or processor, or
 * for another appointment or order, it is refused rather than counted twice or moved.
 */
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
