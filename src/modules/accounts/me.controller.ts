import { Controller, Get } from '@nestjs/common';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiView } from '../../common/openapi/view-schema';
import { AppConfig } from '../../config/app-config';
import { ACCOUNT_VIEW, type AccountView, toAccountView } from './account.view';
import { CurrentPrincipal } from './auth.decorators';
import type { Principal } from './principal';

@ApiTags('account')
@ApiBasicAuth()
@Controller('me')
export class MeController {
  constructor(private readonly config: AppConfig) {}

  /** The authenticated account, from the principal the guard already loaded (no further query). */
  @Get()
  @ApiOperation({ summary: 'The authenticated account' })
  @ApiView(ACCOUNT_VIEW, { description: 'The authenticated account.' })
  me(@CurrentPrincipal() principal: Principal): AccountView {
    return toAccountView(principal.account, this.config);
  }
}
