import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Account, Enterprise } from '../accounts';
import { EnterpriseWebhooksController } from './enterprise-webhooks.controller';
import { MetaController } from './meta.controller';
import { StaticWebhooksController } from './static-webhooks.controller';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookSubscription } from './webhook-subscription.entity';
import { WebhookSubscriptionsService } from './webhook-subscriptions.service';
import { WebhooksController } from './webhooks.controller';

/** Webhook subscriptions (static and dynamic), their delivery log, and `GET /meta`. */
@Module({
  imports: [
    // Account: the subscriptions' foreign key refers to it, so its metadata must be loaded wherever
    // this module is (the worker included).
    TypeOrmModule.forFeature([Account, Enterprise, WebhookSubscription, WebhookDelivery]),
  ],
  controllers: [
    WebhooksController,
    StaticWebhooksController,
    MetaController,
    EnterpriseWebhooksController,
  ],
  providers: [WebhookSubscriptionsService],
  exports: [WebhookSubscriptionsService],
})
export class WebhooksModule {}
