import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/http/public.decorator';
import { ApiErrors } from '../../common/openapi/api-errors';
import { AppConfig } from '../../config/app-config';
import { MetaView } from './meta.view';
import { WEBHOOK_EVENTS } from './webhook-subscription.entity';

/** What a webhook receiver needs to know of the service; public, as the reference serves it. */
@ApiTags('webhooks')
@Controller('meta')
export class MetaController {
  private readonly meta: MetaView;

  constructor(config: AppConfig) {
    this.meta = { hooks: config.webhooks.sourceCidrs, events: [...WEBHOOK_EVENTS] };
  }

  @Get()
  @Public()
  @ApiOperation({
    summary: 'Where webhooks come from, and the events they announce',
    description:
      "No credentials needed. `hooks`: the CIDRs deliveries come from (the reference's field), " +
      'to let them through a firewall; `events`: the events a subscription may name.',
  })
  @ApiOkResponse({ type: MetaView, description: "The webhooks' origins and events." })
  @ApiErrors({}, { authenticated: false })
  get(): MetaView {
    return this.meta;
  }
}
