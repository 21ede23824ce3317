import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { CurrentAccountId } from '../accounts';
import { UpdateStaticWebhooksRequest } from './static-webhooks.request';
import type { StaticWebhooksView } from './static-webhooks.view';
import { WebhookSubscriptionsService } from './webhook-subscriptions.service';

/** The account's static webhooks: one target per action, set in its integrations settings. */
@ApiTags('webhooks')
@ApiBasicAuth()
@Controller('integrations/webhooks')
export class StaticWebhooksController {
  constructor(private readonly subscriptions: WebhookSubscriptionsService) {}

  @Get()
  get(@CurrentAccountId() accountId: number): Promise<StaticWebhooksView> {
    return this.subscriptions.getStatic(accountId);
  }

  @Put()
  update(
    @CurrentAccountId() accountId: number,
    @Body() request: UpdateStaticWebhooksRequest,
  ): Promise<StaticWebhooksView> {
    return this.subscriptions.updateStatic(accountId, request);
  }
}
