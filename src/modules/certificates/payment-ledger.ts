import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isDuplicateEntry } from '../../common/database/mysql-errors';
import { MAX_CENTS } from '../../common/money/money';
import type { Payment } from './payment.entity';
import {
  AmountPaidTooLargeError,
  type PaymentSubject,
  RefundExceedsPaidError,
  RefundReasonRequiredError,
  TooManyPaymentsError,
  TransactionIdReusedError,
} from './payment.errors';
import { PaymentRepository, column } from './payment.repository';
import type { NewPayment } from './payment.requests';

/** An appointment's or an order's ledger holds at most this many payments and refunds. */
export const MAX_PAYMENTS = 500;

/**
 * The payments ledger of appointments and orders. It writes in its subject's transaction, that row
 * locked FOR UPDATE first: one subject's payments are counted one after the other, and the amount
 * paid the caller keeps is the ledger's sum.
 */
@Injectable()
export class PaymentLedger {
  constructor(private readonly payments: PaymentRepository) {}

  /**
   * The payment this request recorded already (same transaction id, subject, amount, processor): a
   * retry, answered with it. 409 when the id was used otherwise; null when it is new.
   */
  async recorded(
    tx: EntityManager,
    accountId: number,
    subject: PaymentSubject,
    request: NewPayment,
  ): Promise<Payment | null> {
    if (request.transactionId === undefined) return null;
    const previous = await this.payments.byTransactionId(tx, accountId, request.transactionId);
    if (!previous) return null;
    const on = subjectOf(previous);
    if (
      on.kind !== subject.kind ||
      on.id !== subject.id ||
      previous.amountCents !== request.amountCents ||
      previous.processor !== request.processor
    )
      throw new TransactionIdReusedError(request.transactionId, on, subject);
    return previous;
  }

  /**
   * Appends a payment or a refund, `paidCents` being what the ledger holds: a refund says why and
   * takes back no more than was paid; the sum stays within MAX_CENTS. A transaction id inserted
   * meanwhile by another request fails the insert: see retryTransactionIdRace.
   */
  async append(
    tx: EntityManager,
    accountId: number,
    subject: PaymentSubject,
    request: NewPayment,
    paidCents: number,
  ): Promise<Payment> {
    const { amountCents } = request;
    if (amountCents < 0 && request.reason === '') throw new RefundReasonRequiredError();
    if (paidCents + amountCents < 0) throw new RefundExceedsPaidError(amountCents, paidCents);
    if (paidCents + amountCents > MAX_CENTS) throw new AmountPaidTooLargeError();
    if ((await this.payments.count(tx, accountId, subject)) >= MAX_PAYMENTS)
      throw new TooManyPaymentsError(subject, MAX_PAYMENTS);
    return this.payments.insert(tx, {
      accountId,
      appointmentId: null,
      orderId: null,
      ...column(subject),
      amountCents,
      processor: request.processor,
      transactionId: request.transactionId ?? `pay_${randomBytes(12).toString('hex')}`,
      reason: request.reason,
      createdAt: new Date(),
    });
  }
}

/**
 * Runs `attempt` (a whole transaction recording a payment) again when another request committed its
 * transaction id meanwhile: the second run answers that payment or refuses the id (`recorded`).
 */
export async function retryTransactionIdRace<T>(attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (e) {
    if (!isDuplicateEntry(e)) throw e;
    return attempt();
  }
}

function subjectOf(payment: Payment): PaymentSubject {
  return payment.appointmentId !== null
    ? { kind: 'appointment', id: payment.appointmentId }
    : { kind: 'order', id: payment.orderId! };
}
