import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { Batcher, retryAlone } from '../../common/database/batcher';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import type { RecordedEvent } from '../../common/outbox/domain-event';
import type { DomainEventConsumer } from '../../common/outbox/domain-event-consumer';
import { type WebhookNotification, deliveredAs, notificationOf } from './webhook-delivery-rules';
import { WebhookDeliveryQueue } from './webhook-delivery-queue';
import { type EventMessages, WebhookMessageRepository } from './webhook-message.repository';
import { WebhookSubscriptionRepository } from './webhook-subscription.repository';

/** Most events one fan-out batch takes. */
const FAN_OUT_BATCH = 200;

interface FanOutItem {
  outboxId: string;
  accountId: number;
  notification: WebhookNotification;
}

/**
 * Worker: turns a domain event into one webhook message per active subscription of its action,
 * static and dynamic alike, the account's own and its enterprise's, and queues a delivery job for
 * each. A consumer of every event type (see src/app/domain-event-consumers.ts): each is a webhook
 * action.
 *
 * Idempotent, as a consumer must be (an event may be handed over again): a message is unique per
 * (event, subscription), and its first job's id is `wh:<messageId>`, so running the fan-out again
 * adds neither a message nor a job; it re-queues only messages still pending, whose job Redis may
 * have lost (the claim keeps a second job from sending twice).
 *
 * Events handled together are fanned out together (see Batcher): one SELECT of the subscriptions,
 * one INSERT of the messages and one addBulk for the whole batch; each event's job completes only
 * once its batch has. When a batch fails, its events are fanned out one by one, so that an event
 * that fails alone fails only its own job.
 */
@Injectable()
export class WebhookFanOut implements DomainEventConsumer {
  private readonly batches = new Batcher<FanOutItem, void>(
    retryAlone((items) => this.fanOut(items)),
    {
      maxBatch: FAN_OUT_BATCH,
      maxInFlight: 2,
    },
  );

  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly messages: WebhookMessageRepository,
    private readonly queue: WebhookDeliveryQueue,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async handle(event: RecordedEvent): Promise<void> {
    const { outboxId, accountId } = event;
    const notifications = deliveredAs(event.type).flatMap((type) => {
      const notification = notificationOf(type, event.payload);
      return notification === null ? [] : [notification];
    });
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
        jobId: WebhookDeliveryQueue.firstJobId(messageId),
      })),
    );
  }
}
