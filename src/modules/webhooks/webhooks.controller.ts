import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import type { WebhookDeliveryView } from './webhook-delivery.view';
import {
  CreateWebhookRequest,
  ListDeliveriesQuery,
  UpdateWebhookRequest,
} from './webhook-subscription.request';
import type { WebhookSubscriptionView } from './webhook-subscription.view';
import { WebhookSubscriptionsService } from './webhook-subscriptions.service';

/** Dynamic webhook subscriptions: what partner apps register through the API. */
@ApiTags('webhooks')
@ApiBasicAuth()
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly subscriptions: WebhookSubscriptionsService) {}

  @Get()
  list(@CurrentAccountId() accountId: number): Promise<WebhookSubscriptionView[]> {
    return this.subscriptions.list(accountId);
  }

  @Post()
  @HttpCode(200)
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateWebhookRequest,
  ): Promise<WebhookSubscriptionView> {
    return this.subscriptions.create(accountId, request);
  }

  @Put(`:id${NUMERIC}`)
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateWebhookRequest,
  ): Promise<WebhookSubscriptionView> {
    return this.subscriptions.update(accountId, id, request);
  }

  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.subscriptions.delete(accountId, id);
  }

  /** The latest delivery attempts first; `max` (default 50, at most 100). */
  @Get(`:id${NUMERIC}/deliveries`)
  deliveries(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Query() query: ListDeliveriesQuery,
  ): Promise<WebhookDeliveryView[]> {
    return this.subscriptions.deliveries(accountId, id, query.max);
  }
}
