import { Column, Entity, Index } from 'typeorm';
import { TenantEntity } from '../../common/database/tenant-entity';

/** Who moved the money: the business's own ways, the processors the reference names, `external`. */
export const PAYMENT_PROCESSORS = [
  'cash',
  'check',
  'card-terminal',
  'bank-transfer',
  'external',
  'stripe',
  'square',
  'paypal',
  'paypal_pro',
  'braintree',
  'authorizenet',
] as const;
export type PaymentProcessor = (typeof PAYMENT_PROCESSORS)[number];

/**
 * A payment (above 0) or a refund (below 0) of an appointment or an order: the ledger their
 * `amountPaid` and `paid` follow. The transaction id, unique in the account, is its idempotency key.
 * Here, the lowest module reading it (orders are here, appointments above).
 */
@Entity('payments')
@Index('uq_payments_account_transaction', ['accountId', 'transactionId'], { unique: true })
@Index('idx_payments_appointment', ['appointmentId', 'id'])
@Index('idx_payments_order', ['orderId', 'id'])
export class Payment extends TenantEntity {
  @Column({ name: 'appointment_id', type: 'int', unsigned: true, nullable: true })
  appointmentId!: number | null;

  @Column({ name: 'order_id', type: 'int', unsigned: true, nullable: true })
  orderId!: number | null;

  /** Signed: a refund is negative. */
  @Column({ name: 'amount_cents', type: 'int' })
  amountCents!: number;

  @Column({ type: 'varchar', length: 32 })
  processor!: PaymentProcessor;

  /** The processor's id of the transaction, or one made up when none was given; byte for byte. */
  @Column({ name: 'transaction_id', type: 'varchar', length: 255, collation: 'utf8mb4_bin' })
  transactionId!: string;

  /** Why (required for a refund); "" when none was given. */
  @Column({ type: 'varchar', length: 1000, default: '' })
  reason!: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;
}
