import { Column, Entity, Index } from 'typeorm';
import { CascadeTo } from '../../common/database/cascade-to';
import { WebhookEventRow, WebhookSubscription } from './webhook-subscription.entity';

/** How an attempt ended (`retrying`: another attempt is scheduled). */
export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed' | 'stopped';

/** One attempt to deliver one event to one subscription. */
@Entity('webhook_deliveries')
@Index('idx_webhook_deliveries_subscription', ['subscriptionId', 'id'])
export class WebhookDelivery extends WebhookEventRow {
  @CascadeTo(() => WebhookSubscription, 'fk_webhook_deliveries_subscription')
  @Column({ name: 'subscription_id', type: 'int', unsigned: true })
  subscriptionId!: number;

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

  /** Why the attempt failed without a response (or what was wrong with it). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  error!: string | null;

  @Column({ type: 'varchar', length: 10 })
  outcome!: DeliveryOutcome;

  @Column({ name: 'next_retry_at', type: 'datetime', precision: 3, nullable: true })
  nextRetryAt!: Date | null;
}
