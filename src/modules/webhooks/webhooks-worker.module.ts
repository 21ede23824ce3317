import { Module } from '@nestjs/common';
import { WebhookAttempts } from './webhook-attempts';
import { WebhookDeliveriesProcessor } from './webhook-deliveries.processor';
import { WebhookDeliveryQueue, webhookDeliveriesQueueModule } from './webhook-delivery-queue';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import { WebhookFanOut } from './webhook-fan-out';
import { webhookFairnessProvider } from './webhook-fairness';
import { WebhookMessageRepository, webhookMessagesTable } from './webhook-message.repository';
import { WebhookRecovery } from './webhook-recovery';
import { webhookSenderProvider } from './webhook-sender';
import { WebhookSigningKeys } from './webhook-signing-keys';
import { WebhookSubscriptionRepository, webhookTables } from './webhook-subscription.repository';

/**
 * Worker side of webhooks: the fan-out (a domain-event consumer, exported for the worker's map of
 * consumers), the deliveries queue and its processor, and the sweeper that revives deliveries whose
 * job was lost. Only the worker imports it: the API never produces nor consumes the deliveries
 * queue. The tables are the API's WebhooksModule's, plus the messages only the worker reads and
 * writes.
 */
@Module({
  imports: [webhookTables, webhookMessagesTable, webhookDeliveriesQueueModule],
  providers: [
    WebhookFanOut,
    WebhookDeliveryQueue,
    WebhookAttempts,
    WebhookMessageRepository,
    WebhookSubscriptionRepository,
    WebhookDeliveryRepository,
    WebhookSigningKeys,
    WebhookDeliveriesProcessor,
    WebhookRecovery,
    webhookSenderProvider,
    webhookFairnessProvider,
  ],
  exports: [WebhookFanOut],
})
export class WebhooksWorkerModule {}
