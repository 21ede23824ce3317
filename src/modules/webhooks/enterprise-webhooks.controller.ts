import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { BusController } from '../../common/cqrs/bus-controller';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { ApiErrors } from '../../common/openapi/api-errors';
import { CurrentEnterprise, type Enterprise, EnterpriseApi } from '../accounts';
import { WEBHOOK_EVENTS } from './webhook-subscription.entity';
import { CreateWebhookCommand, DeleteWebhookCommand } from './webhook-subscription.commands';
import { ListWebhooksQuery } from './webhook-subscription.queries';
import { CreateWebhookRequest } from './webhook-subscription.requests';
import type { WebhookSubscriptionView } from './webhook-subscription.view';

const SUBSCRIPTION_SCHEMA = {
  type: 'object' as const,
  required: ['id', 'event', 'target', 'status'],
  properties: {
    id: { type: 'integer' as const, example: 7 },
    event: { type: 'string' as const, enum: [...WEBHOOK_EVENTS], example: 'appointment.scheduled' },
    target: { type: 'string' as const, example: 'https://hooks.example.com/scheduling' },
    status: {
      type: 'string' as const,
      enum: ['active', 'disabled'],
      description: 'Disabled after failing for 5 days; delete and subscribe again.',
    },
  },
};

/** An enterprise's subscriptions: each hears all its members' events (`userId` names the one). */
@ApiTags('enterprise')
@EnterpriseApi()
@Controller('api/enterprise/v1/webhooks')
export class EnterpriseWebhooksController extends BusController {
  @Get()
  @ApiOperation({ summary: "List the enterprise's webhook subscriptions" })
  @ApiOkResponse({
    description: 'The subscriptions, by id.',
    schema: { type: 'array', items: SUBSCRIPTION_SCHEMA },
  })
  @ApiErrors({})
  list(@CurrentEnterprise() enterprise: Enterprise): Promise<WebhookSubscriptionView[]> {
    return this.queries.execute(new ListWebhooksQuery({ enterpriseId: enterprise.id }));
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Subscribe to an event of all members',
    description:
      'As `POST /api/v1/webhooks`, for every member: the body of each delivery is that of the ' +
      "member's own webhooks with `userId=<the member's id>` added, signed with the enterprise's " +
      'API key (`x-service-signature` and Standard Webhooks, as for accounts). At most 25.',
  })
  @ApiOkResponse({ description: 'The subscription.', schema: SUBSCRIPTION_SCHEMA })
  @ApiErrors({ 400: ['invalid_event', 'invalid_target', 'too_many_webhooks', 'bad_request'] })
  create(
    @CurrentEnterprise() enterprise: Enterprise,
    @Body() request: CreateWebhookRequest,
  ): Promise<WebhookSubscriptionView> {
    return this.commands.execute(
      new CreateWebhookCommand({ enterpriseId: enterprise.id }, request),
    );
  }

  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a subscription of the enterprise' })
  @ApiNoContentResponse({ description: 'Deleted, with its delivery log.' })
  @ApiErrors({ 403: ['forbidden'], 404: ['not_found'] })
  delete(@CurrentEnterprise() enterprise: Enterprise, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteWebhookCommand({ enterpriseId: enterprise.id }, id));
  }
}
