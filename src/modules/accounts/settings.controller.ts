import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAccountId } from './auth.decorators';
import { UpdateSettingsRequest } from './settings.requests';
import { UpdateSettingsCommand } from './account.commands';
import { GetSettingsQuery } from './account.queries';
import { SETTINGS_VIEW, type SettingsView } from './settings.view';
import { ApiView } from '../../common/openapi/view-schema';
import { BusController } from '../../common/cqrs/bus-controller';

@ApiTags('account')
@ApiBasicAuth()
@Controller('settings')
export class SettingsController extends BusController {
  @ApiOperation({ summary: "The account's settings" })
  @ApiView(SETTINGS_VIEW)
  @Get()
  get(@CurrentAccountId() accountId: number): Promise<SettingsView> {
    return this.queries.execute(new GetSettingsQuery(accountId));
  }

  @ApiOperation({ summary: "Change the account's settings" })
  @ApiView(SETTINGS_VIEW)
  @Put()
  update(
    @CurrentAccountId() accountId: number,
    @Body() request: UpdateSettingsRequest,
  ): Promise<SettingsView> {
    return this.commands.execute(new UpdateSettingsCommand(accountId, request));
  }
}
