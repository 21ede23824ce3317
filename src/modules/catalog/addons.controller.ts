import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import { CreateAddonRequest, UpdateAddonRequest } from './addon.requests';
import { ADDON_VIEW, type AddonView } from './addon.view';
import { CreateAddonCommand, DeleteAddonCommand, UpdateAddonCommand } from './addon.commands';
import { GetAddonQuery, ListAddonsQuery } from './addon.queries';
import { ApiView } from '../../common/openapi/view-schema';

@ApiTags('catalog')
@ApiBasicAuth()
@Controller('appointment-addons')
export class AddonsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @ApiOperation({ summary: 'List the addons' })
  @ApiView(ADDON_VIEW, { list: true })
  @Get()
  list(@CurrentAccountId() accountId: number): Promise<AddonView[]> {
    return this.queries.execute(new ListAddonsQuery(accountId));
  }

  @ApiOperation({ summary: 'Read a addon' })
  @ApiView(ADDON_VIEW)
  @Get(`:id${NUMERIC}`)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<AddonView> {
    return this.queries.execute(new GetAddonQuery(accountId, id));
  }

  @ApiOperation({ summary: 'Create a addon' })
  @ApiView(ADDON_VIEW)
  @Post()
  @HttpCode(200)
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateAddonRequest,
  ): Promise<AddonView> {
    return this.commands.execute(new CreateAddonCommand(accountId, request));
  }

  @ApiOperation({ summary: 'Change a addon' })
  @ApiView(ADDON_VIEW)
  @Put(`:id${NUMERIC}`)
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateAddonRequest,
  ): Promise<AddonView> {
    return this.commands.execute(new UpdateAddonCommand(accountId, id, request));
  }

  @ApiOperation({ summary: 'Delete a addon' })
  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteAddonCommand(accountId, id));
  }
}
