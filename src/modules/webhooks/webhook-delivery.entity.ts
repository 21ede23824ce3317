import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookSubscription, type WebhookAction } from './webhook-subscription.entity';

/** How an attempt ended, as the delivery side records it (`retrying`: another attempt is scheduled). */
export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed' | 'stopped';

/** One attempt to deliver one event to one subscription. */
@Entity('webhook_deliveries')
@Index('idx_webhook_deliveries_subscription', ['subscriptionId', 'id'])
export class WebhookDelivery {
  /** BIGINT, read as a string (exact beyond 2^53). */
  @PrimaryGeneratedColumn({ type: 'bigint', unsigned: true })
  id!: string;

  /** Deleting a subscription deletes its deliveries (ON DELETE CASCADE). */
  @ForeignKey(() => WebhookSubscription, {
    name: 'fk_webhook_deliveries_subscription',
    onDelete: 'CASCADE',
    onUpdate: 'RESTRICT',
  })
  @Column({ name: 'subscription_id', type: 'int', unsigned: true })
  subscriptionId!: number;

  @Column({ name: 'account_id', type: 'int', unsigned: true })
  accountId!: number;

  /** The event delivered: its outbox row id (BIGINT, read as a string). */
  @Column({ name: 'outbox_id', type: 'bigint', unsigned: true })
  outboxId!: string;

  @Column({ type: 'varchar', length: 32 })
  action!: WebhookAction;

  /** The appointment or order the event is about (the delivered `id`). */
  @Column({ name: 'resource_id', type: 'int', unsigned: true })
  resourceId!: number;

  /** 1 for the first try, 2 for the first retry, … */
  @Column({ type: 'smallint', unsigned: true })
  attempt!: number;

  @Column({ name: 'attempted_at', type: 'datetime', precision: 3 })
  attemptedAt!: Date;

  @Column({ name: 'duration_ms', type: 'int', unsigned: true })
  durationMs!: number;

  /** The receiver's HTTP status; null when there was no response (network error, timeout). */
  @Column({ name: 'status_code', type: 'smallint', unsigned: true, nullable: true })
  statusCode!: number | null;

  /** Why the attempt failed without a response (or what was wrong with it); null when it did not. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  error!: string | null;

  @Column({ type: 'varchar', length: 10 })
  outcome!: DeliveryOutcome;

  @Column({ name: 'next_retry_at', type: 'datetime', precision: 3, nullable: true })
  nextRetryAt!: Date | null;
}
