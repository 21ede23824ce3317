import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAccountId } from './auth.decorators';
import { UpdateSettingsRequest } from './settings.requests';
import { SettingsService } from './settings.service';
import { SETTINGS_VIEW, type SettingsView } from './settings.view';
import { ApiView } from '../../common/openapi/view-schema';

@ApiTags('account')
@ApiBasicAuth()
@Controller('settings')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @ApiOperation({ summary: "The account's settings" })
  @ApiView(SETTINGS_VIEW)
  @Get()
  get(@CurrentAccountId() accountId: number): Promise<SettingsView> {
    return this.settings.get(accountId);
  }

  @ApiOperation({ summary: "Change the account's settings" })
  @ApiView(SETTINGS_VIEW)
  @Put()
  update(
    @CurrentAccountId() accountId: number,
    @Body() request: UpdateSettingsRequest,
  ): Promise<SettingsView> {
    return this.settings.update(accountId, request);
  }
}
