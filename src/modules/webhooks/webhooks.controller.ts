import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { BusController } from '../../common/cqrs/bus-controller';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import { WEBHOOK_DELIVERY_VIEW, type WebhookDeliveryView } from './webhook-delivery.view';
import {
  CreateWebhookRequest,
  ListDeliveriesQuery,
  UpdateWebhookRequest,
} from './webhook-subscription.requests';
import {
  CreateWebhookCommand,
  DeleteWebhookCommand,
  UpdateWebhookCommand,
} from './webhook-subscription.commands';
import { ListWebhookDeliveriesQuery, ListWebhooksQuery } from './webhook-subscription.queries';
import {
  WEBHOOK_SUBSCRIPTION_VIEW,
  type WebhookSubscriptionView,
} from './webhook-subscription.view';
import { ApiView } from '../../common/openapi/view-schema';
import { ApiErrors } from '../../common/openapi/api-errors';

/** Dynamic webhook subscriptions: what partner apps register through the API. */
@ApiTags('webhooks')
@ApiBasicAuth()
@Controller('webhooks')
export class WebhooksController extends BusController {
  @ApiOperation({ summary: 'List the webhook subscriptions' })
  @ApiView(WEBHOOK_SUBSCRIPTION_VIEW, { list: true })
  @Get()
  list(@CurrentAccountId() accountId: number): Promise<WebhookSubscriptionView[]> {
    return this.queries.execute(new ListWebhooksQuery({ accountId }));
  }

  @ApiOperation({ summary: 'Create a webhook subscription' })
  @ApiView(WEBHOOK_SUBSCRIPTION_VIEW)
  @Post()
  @HttpCode(200)
  @ApiErrors({ 400: ['too_many_webhooks'] })
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateWebhookRequest,
  ): Promise<WebhookSubscriptionView> {
    return this.commands.execute(new CreateWebhookCommand({ accountId }, request));
  }

  @ApiOperation({ summary: 'Change a webhook subscription' })
  @ApiView(WEBHOOK_SUBSCRIPTION_VIEW)
  @Put(`:id${NUMERIC}`)
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateWebhookRequest,
  ): Promise<WebhookSubscriptionView> {
    return this.commands.execute(new UpdateWebhookCommand(accountId, id, request));
  }

  @ApiOperation({ summary: 'Delete a webhook subscription' })
  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteWebhookCommand({ accountId }, id));
  }

  /** The latest delivery attempts first; `max` (default 50, at most 100). */
  @ApiOperation({ summary: "A subscription's delivery attempts" })
  @ApiView(WEBHOOK_DELIVERY_VIEW, { list: true })
  @Get(`:id${NUMERIC}/deliveries`)
  deliveries(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Query() query: ListDeliveriesQuery,
  ): Promise<WebhookDeliveryView[]> {
    return this.queries.execute(new ListWebhookDeliveriesQuery(accountId, id, query.max));
  }
}
