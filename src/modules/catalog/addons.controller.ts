import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import { CreateAddonRequest, UpdateAddonRequest } from './addon.requests';
import type { AddonView } from './addon.view';
import { AddonsService } from './addons.service';

@ApiTags('catalog')
@ApiBasicAuth()
@Controller('appointment-addons')
export class AddonsController {
  constructor(private readonly addons: AddonsService) {}

  @Get()
  list(@CurrentAccountId() accountId: number): Promise<AddonView[]> {
    return this.addons.list(accountId);
  }

  @Get(`:id${NUMERIC}`)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<AddonView> {
    return this.addons.get(accountId, id);
  }

  @Post()
  @HttpCode(200)
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateAddonRequest,
  ): Promise<AddonView> {
    return this.addons.create(accountId, request);
  }

  @Put(`:id${NUMERIC}`)
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateAddonRequest,
  ): Promise<AddonView> {
    return this.addons.update(accountId, id, request);
  }

  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.addons.delete(accountId, id);
  }
}
