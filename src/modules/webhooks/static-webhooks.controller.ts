import { Body, Controller, Get, Put } from '@nestjs/common';
import { BusController } from '../../common/cqrs/bus-controller';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAccountId } from '../accounts';
import { UpdateStaticWebhooksRequest } from './static-webhooks.requests';
import { STATIC_WEBHOOKS_VIEW, type StaticWebhooksView } from './static-webhooks.view';
import { UpdateStaticWebhooksCommand } from './webhook-subscription.commands';
import { GetStaticWebhooksQuery } from './webhook-subscription.queries';
import { ApiView } from '../../common/openapi/view-schema';
import { ApiErrors } from '../../common/openapi/api-errors';

/** The account's static webhooks: one target per action, set in its integrations settings. */
@ApiTags('webhooks')
@ApiBasicAuth()
@Controller('integrations/webhooks')
export class StaticWebhooksController extends BusController {
  @ApiOperation({ summary: 'The static webhooks, one per action' })
  @ApiView(STATIC_WEBHOOKS_VIEW)
  @Get()
  get(@CurrentAccountId() accountId: number): Promise<StaticWebhooksView> {
    return this.queries.execute(new GetStaticWebhooksQuery(accountId));
  }

  @ApiOperation({ summary: 'Set or clear static webhooks' })
  @ApiView(STATIC_WEBHOOKS_VIEW)
  @Put()
  @ApiErrors({ 400: ['invalid_status', 'invalid_target'] })
  update(
    @CurrentAccountId() accountId: number,
    @Body() request: UpdateStaticWebhooksRequest,
  ): Promise<StaticWebhooksView> {
    return this.commands.execute(new UpdateStaticWebhooksCommand(accountId, request));
  }
}
