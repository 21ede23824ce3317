import { Module } from '@nestjs/common';
import { EnterpriseWebhooksController } from './enterprise-webhooks.controller';
import { MetaController } from './meta.controller';
import { StaticWebhooksController } from './static-webhooks.controller';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import {
  CreateWebhookHandler,
  DeleteWebhookHandler,
  UpdateStaticWebhooksHandler,
  UpdateWebhookHandler,
} from './webhook-subscription.commands';
import {
  GetStaticWebhooksHandler,
  ListWebhookDeliveriesHandler,
  ListWebhooksHandler,
} from './webhook-subscription.queries';
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
    CreateWebhookHandler,
    DeleteWebhookHandler,
    GetStaticWebhooksHandler,
    ListWebhookDeliveriesHandler,
    ListWebhooksHandler,
    UpdateStaticWebhooksHandler,
    UpdateWebhookHandler,
    WebhookDeliveryRepository,
    WebhookSubscriptionRepository,
  ],
})
export class WebhooksModule {}
