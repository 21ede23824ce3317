import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Payment } from './payment.entity';
import type { PaymentSubject } from './payment.errors';

/** The payments ledger's rows (see PaymentLedger for its rules). */
@Injectable()
export class PaymentRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Oldest first. */
  list(accountId: number, subject: PaymentSubject): Promise<Payment[]> {
    return this.dataSource.manager.find(Payment, {
      where: { accountId, ...column(subject) },
      order: { id: 'ASC' },
    });
  }

  byTransactionId(
    tx: EntityManager,
    accountId: number,
    transactionId: string,
  ): Promise<Payment | null> {
    return tx.findOneBy(Payment, { accountId, transactionId });
  }

  count(tx: EntityManager, accountId: number, subject: PaymentSubject): Promise<number> {
    return tx.countBy(Payment, { accountId, ...column(subject) });
  }

  insert(tx: EntityManager, payment: Omit<Payment, 'id'>): Promise<Payment> {
    return tx.save(Object.assign(new Payment(), payment));
  }

  /** What the subject's ledger sums to (inside its transaction, the row locked). */
  async paidOn(tx: EntityManager, accountId: number, subject: PaymentSubject): Promise<number> {
    const row = await tx
      .createQueryBuilder(Payment, 'p')
      .select('COALESCE(SUM(p.amountCents), 0)', 'paid')
      .where({ accountId, ...column(subject) })
      .getRawOne<{ paid: string | number }>();
    return Number(row?.paid ?? 0);
  }
}

export function column(subject: PaymentSubject): { appointmentId: number } | { orderId: number } {
  return subject.kind === 'appointment' ? { appointmentId: subject.id } : { orderId: subject.id };
}
