import { Controller, Get } from '@nestjs/common';
import { BusController } from '../../common/cqrs/bus-controller';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiView } from '../../common/openapi/view-schema';
import { GetMeQuery } from './account.queries';
import { ACCOUNT_VIEW, type AccountView } from './account.view';
import { CurrentPrincipal } from './auth.decorators';
import type { Principal } from './principal';

@ApiTags('account')
@ApiBasicAuth()
@Controller('me')
export class MeController extends BusController {
  @Get()
  @ApiOperation({ summary: 'The authenticated account' })
  @ApiView(ACCOUNT_VIEW, { description: 'The authenticated account.' })
  me(@CurrentPrincipal() principal: Principal): Promise<AccountView> {
    return this.queries.execute(new GetMeQuery(principal.account));
  }
}
