import { Controller, Get } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '../../config/app-config';
import { ACCOUNT_VIEW_SCHEMA, type AccountView, toAccountView } from './account.view';
import { CurrentPrincipal } from './auth.decorators';
import type { Principal } from './principal';

@ApiTags('account')
@ApiBasicAuth()
@Controller('me')
export class MeController {
  constructor(private readonly config: AppConfig) {}

  /** The authenticated account, from the principal the guard already loaded (no further query). */
  @Get()
  @ApiOkResponse({ description: 'The authenticated account.', schema: ACCOUNT_VIEW_SCHEMA })
  me(@CurrentPrincipal() principal: Principal): AccountView {
    return toAccountView(principal.account, this.config);
  }
}
