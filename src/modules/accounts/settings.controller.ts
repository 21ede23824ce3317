import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { CurrentAccountId } from './auth.decorators';
import { UpdateSettingsRequest } from './settings.requests';
import { SettingsService } from './settings.service';
import type { SettingsView } from './settings.view';

@ApiTags('account')
@ApiBasicAuth()
@Controller('settings')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get()
  get(@CurrentAccountId() accountId: number): Promise<SettingsView> {
    return this.settings.get(accountId);
  }

  @Put()
  update(
    @CurrentAccountId() accountId: number,
    @Body() request: UpdateSettingsRequest,
  ): Promise<SettingsView> {
    return this.settings.update(accountId, request);
  }
}
