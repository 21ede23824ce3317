import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { Batcher, retryAlone } from '../../common/database/batcher';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import type { RecordedEvent } from '../../common/outbox/domain-event';
import type { DomainEventConsumer } from '../../common/outbox/domain-event-consumer';
import { deliveredAs, notificationOf } from './webhook-delivery-rules';
import { WebhookDeliveryQueue } from './webhook-delivery-queue';
import { type EventMessages, WebhookMessageRepository } from './webhook-message.repository';
import { WebhookSubscriptionRepository } from './webhook-subscription.repository';

type FanOutItem = Omit<EventMessages, 'subscriptionIds'>;

/**
 * Worker, a consumer of every event type: one webhook message per active subscription of the
 * event's action (static and dynamic, the account's and its enterprise's), a delivery job for each.
 *
 * Idempotent, as a consumer must be: a message is unique per (event, subscription) and its first
 * job's id is `wh:<messageId>`, so a second run adds neither; it re-queues only messages still
 * pending, whose job Redis may have lost (the claim keeps a second job from sending twice).
 *
 * Events handled together share one SELECT, one INSERT and one addBulk (see Batcher), and a job
 * completes once its batch has; a failed batch is fanned out one event at a time, so that an event
 * failing alone fails only its own job.
 */
@Injectable()
export class WebhookFanOut implements DomainEventConsumer {
  private readonly batches = new Batcher<FanOutItem, void>(
    retryAlone((items) => this.fanOut(items)),
    { maxBatch: 200, maxInFlight: 2 },
  );

  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly messages: WebhookMessageRepository,
    private readonly queue: WebhookDeliveryQueue,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async handle(event: RecordedEvent): Promise<void> {
    const { outboxId, accountId } = event;
    const notifications = deliveredAs(event.type)
      .map((type) => notificationOf(type, event.payload))
      .filter((notification) => notification !== null);
    if (notifications.length === 0 || accountId === null) {
      this.logger.debug({ outboxId, type: event.type }, 'no webhook for event');
      return;
    }
    await Promise.all(
      notifications.map((notification) => this.batches.add({ outboxId, accountId, notification })),
    );
  }

  private async fanOut(items: FanOutItem[]): Promise<void> {
    // A superset of the (account, action) pairs wanted: each event keeps its own below.
    const subscriptions = await this.subscriptions.activeFor(
      [...new Set(items.map((i) => i.accountId))],
      [...new Set(items.map((i) => i.notification.action))],
    );
    const events: EventMessages[] = [];
    for (const item of items) {
      const ids = subscriptions
        .filter((s) => s.account_id === item.accountId && s.action === item.notification.action)
        .map((s) => s.id);
      if (ids.length > 0) events.push({ ...item, subscriptionIds: ids });
    }
    if (events.length === 0) return;
    const pending = await this.messages.insertPending(events);
    await this.queue.add(
      pending.map((messageId) => ({
        messageId,
        jobId: `wh:${messageId}`,
      })),
    );
  }
}
