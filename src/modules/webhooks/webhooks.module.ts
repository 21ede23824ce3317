import { Module } from '@nestjs/common';
import { handlersOf } from '../../common/cqrs/handlers-of';
import { EnterpriseWebhooksController } from './enterprise-webhooks.controller';
import { MetaController } from './meta.controller';
import { StaticWebhooksController } from './static-webhooks.controller';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import * as webhookSubscriptionCommands from './webhook-subscription.commands';
import * as webhookSubscriptionQueries from './webhook-subscription.queries';
import { WebhookSubscriptionRepository, webhookTables } from './webhook-subscription.repository';
import { WebhooksController } from './webhooks.controller';

/** Webhook subscriptions (static and dynamic), their delivery log, and `GET /meta`. */
@Module({
  imports: [webhookTables],
  controllers: [
    WebhooksController,
    StaticWebhooksController,
    MetaController,
    EnterpriseWebhooksController,
  ],
  providers: [
    WebhookDeliveryRepository,
    WebhookSubscriptionRepository,
    ...handlersOf(webhookSubscriptionCommands, webhookSubscriptionQueries),
  ],
})
export class WebhooksModule {}
