import { Column, Entity, Index } from 'typeorm';
import type { WebhookVariables } from './webhook-delivery-rules';
import { CascadeTo } from '../../common/database/cascade-to';
import { WebhookEventRow, WebhookSubscription } from './webhook-subscription.entity';

/**
 * `pending` while attempts remain, then `delivered`, `failed` (an answer not retried: 4xx, 3xx,
 * 502…), `stopped` (the ladder ran out, or this failure disabled the subscription) or `skipped`
 * (the subscription was disabled before its turn).
 */
export type WebhookMessageStatus = 'pending' | 'delivered' | 'failed' | 'stopped' | 'skipped';

/**
 * One event to deliver to one subscription (unique per pair), written by the fan-out, claimed by
 * delivery jobs one attempt at a time. The truth of a delivery lives here, not in Redis: the
 * sweeper queues again a job Redis lost.
 */
@Entity('webhook_messages')
@Index('uq_webhook_messages_event', ['outboxId', 'subscriptionId'], { unique: true })
@Index('idx_webhook_messages_due', ['status', 'nextAttemptAt'])
@Index('idx_webhook_messages_subscription', ['subscriptionId'])
export class WebhookMessage extends WebhookEventRow {
  @CascadeTo(() => WebhookSubscription, 'fk_webhook_messages_subscription')
  @Column({ name: 'subscription_id', type: 'int', unsigned: true })
  subscriptionId!: number;

  /** The body's variables in order, as [name, value] pairs (MySQL 8 reorders a JSON object's keys). */
  @Column({ type: 'json' })
  variables!: WebhookVariables;

  @Column({ type: 'varchar', length: 10 })
  status!: WebhookMessageStatus;

  /** Attempts made so far: the next retry waits the ladder's rung of this number. */
  @Column({ type: 'smallint', unsigned: true })
  attempts!: number;

  /** When the next attempt is due (one put off for fairness: when its delayed job is). */
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
