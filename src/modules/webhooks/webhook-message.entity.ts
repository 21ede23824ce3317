import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { WebhookVariables } from './webhook-delivery-rules';
import { WebhookSubscription, type WebhookAction } from './webhook-subscription.entity';

/**
 * Where one message stands: `pending` while attempts remain (the first included), then
 * `delivered`, `failed` (an answer that is not retried: 4xx, 3xx, 502…), `stopped` (the ladder ran
 * out, or the subscription was disabled by this failure) or `skipped` (the subscription was disabled
 * before its turn came).
 */
export type WebhookMessageStatus = 'pending' | 'delivered' | 'failed' | 'stopped' | 'skipped';

/**
 * One event to deliver to one subscription: written by the fan-out (one per matching subscription,
 * unique per event and subscription), then claimed by delivery jobs for one attempt at a time. The
 * truth about a delivery lives here, not in Redis: a job Redis lost is queued again by the sweeper.
 */
@Entity('webhook_messages')
@Index('uq_webhook_messages_event', ['outboxId', 'subscriptionId'], { unique: true })
@Index('idx_webhook_messages_due', ['status', 'nextAttemptAt'])
@Index('idx_webhook_messages_subscription', ['subscriptionId'])
export class WebhookMessage {
  /** BIGINT, read as a string (exact beyond 2^53). */
  @PrimaryGeneratedColumn({ type: 'bigint', unsigned: true })
  id!: string;

  @Column({ name: 'account_id', type: 'int', unsigned: true })
  accountId!: number;

  /** Deleting a subscription deletes its messages (ON DELETE CASCADE). */
  @ForeignKey(() => WebhookSubscription, {
    name: 'fk_webhook_messages_subscription',
    onDelete: 'CASCADE',
    onUpdate: 'RESTRICT',
  })
  @Column({ name: 'subscription_id', type: 'int', unsigned: true })
  subscriptionId!: number;

  /** The event: its outbox row id (BIGINT, read as a string). */
  @Column({ name: 'outbox_id', type: 'bigint', unsigned: true })
  outboxId!: string;

  @Column({ type: 'varchar', length: 32 })
  action!: WebhookAction;

  /** The appointment or order (the delivered `id`). */
  @Column({ name: 'resource_id', type: 'int', unsigned: true })
  resourceId!: number;

  /** The body's variables in order, as [name, value] pairs (MySQL 8 reorders a JSON object's keys). */
  @Column({ type: 'json' })
  variables!: WebhookVariables;

  @Column({ type: 'varchar', length: 10 })
  status!: WebhookMessageStatus;

  /** Attempts made so far: the next retry waits the ladder's rung of this number. */
  @Column({ type: 'smallint', unsigned: true })
  attempts!: number;

  /**
   * When the next attempt is due (the first: when the fan-out wrote the row; one put off for
   * fairness: when its delayed job is).
   */
  @Column({ name: 'next_attempt_at', type: 'datetime', precision: 3 })
  nextAttemptAt!: Date;

  /** While an attempt is in flight, until when its job owns the row; null otherwise. */
  @Column({ name: 'leased_until', type: 'datetime', precision: 3, nullable: true })
  leasedUntil!: Date | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}
