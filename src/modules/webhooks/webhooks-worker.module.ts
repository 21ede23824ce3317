import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Account, Enterprise } from '../accounts';
import { WebhookDeliveriesProcessor } from './webhook-deliveries.processor';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookDeliveryQueue, webhookDeliveriesQueueModule } from './webhook-delivery-queue';
import { WebhookFanOut } from './webhook-fan-out';
import { webhookFairnessProvider } from './webhook-fairness';
import { WebhookMessage } from './webhook-message.entity';
import { WebhookMessages } from './webhook-messages';
import { WebhookRecovery } from './webhook-recovery';
import { webhookSenderProvider } from './webhook-sender';
import { WebhookSigningKeys } from './webhook-signing-keys';
import { WebhookSubscription } from './webhook-subscription.entity';

/**
 * Worker side of webhooks: the fan-out (a domain-event consumer, exported for the worker's map of
 * consumers), the deliveries queue and its processor, and the sweeper that revives deliveries whose
 * job was lost. Only the worker imports it: the API never produces nor consumes the deliveries
 * queue. The entities are the API's WebhooksModule's, plus the messages only the worker reads and
 * writes.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      Account,
      Enterprise,
      WebhookSubscription,
      WebhookDelivery,
      WebhookMessage,
    ]),
    webhookDeliveriesQueueModule,
  ],
  providers: [
    WebhookFanOut,
    WebhookDeliveryQueue,
    WebhookMessages,
    WebhookSigningKeys,
    WebhookDeliveriesProcessor,
    WebhookRecovery,
    webhookSenderProvider,
    webhookFairnessProvider,
  ],
  exports: [WebhookFanOut],
})
export class WebhooksWorkerModule {}
