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

/** The worker's webhooks: fan-out, deliveries queue, processor and sweeper (none in the API). */
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
