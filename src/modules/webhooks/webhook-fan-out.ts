import { Inject } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import type { RecordedEvent } from '../../common/outbox/domain-event';
import {
  DomainEventConsumer,
  type DomainEventHandler,
} from '../../common/outbox/domain-event-consumer';
import { notificationOf } from './webhook-delivery-rules';
import { WebhookDeliveryQueue } from './webhook-delivery-queue';
import { WebhookMessages } from './webhook-messages';

/**
 * Worker: turns a domain event into one webhook message per active subscription of its action,
 * static and dynamic alike, and queues a delivery job for each.
 *
 * Idempotent, as a consumer must be (an event may be handed over again): a message is unique per
 * (event, subscription), and its first job's id is `wh:<messageId>`, so running the fan-out again
 * adds neither a message nor a job; it re-queues only messages still pending, whose job Redis may
 * have lost (the claim keeps a second job from sending twice).
 */
@DomainEventConsumer()
export class WebhookFanOut implements DomainEventHandler {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly messages: WebhookMessages,
    private readonly queue: WebhookDeliveryQueue,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async handle(event: RecordedEvent): Promise<void> {
    const notification = notificationOf(event.type, event.payload);
    if (notification === null || event.accountId === null) {
      if (event.type.startsWith('appointment.') || event.type === 'order.completed') {
        this.logger.debug({ outboxId: event.outboxId, type: event.type }, 'no webhook for event');
      }
      return;
    }
    const subscriptions: { id: number }[] = await this.dataSource.query(
      "SELECT id FROM webhook_subscriptions WHERE account_id = ? AND action = ? AND status = 'active'",
      [event.accountId, notification.action],
    );
    if (subscriptions.length === 0) return;
    const pending = await this.messages.createForEvent(
      { outboxId: event.outboxId, accountId: event.accountId },
      notification,
      subscriptions.map((s) => s.id),
    );
    await this.queue.add(
      pending.map((messageId) => ({
        messageId,
        jobId: WebhookDeliveryQueue.firstJobId(messageId),
      })),
    );
  }
}
