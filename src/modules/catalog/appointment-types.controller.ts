import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import { AppointmentTypeAttributes, ListAppointmentTypesQuery } from './appointment-type.requests';
import type { AppointmentTypeDetails, AppointmentTypeView } from './appointment-type.view';
import { AppointmentTypesService } from './appointment-types.service';

@ApiTags('catalog')
@ApiBasicAuth()
@Controller('appointment-types')
export class AppointmentTypesController {
  constructor(private readonly types: AppointmentTypesService) {}

  /** The reference shape; `?includeDeleted=true` adds the soft-deleted types. */
  @Get()
  list(
    @CurrentAccountId() accountId: number,
    @Query() query: ListAppointmentTypesQuery,
  ): Promise<AppointmentTypeView[]> {
    return this.types.list(accountId, query.includeDeleted ?? false);
  }

  @Get(`:id${NUMERIC}`)
  get(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
  ): Promise<AppointmentTypeDetails> {
    return this.types.get(accountId, id);
  }

  @Post()
  @HttpCode(200)
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: AppointmentTypeAttributes,
  ): Promise<AppointmentTypeDetails> {
    return this.types.create(accountId, request);
  }

  @Put(`:id${NUMERIC}`)
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: AppointmentTypeAttributes,
  ): Promise<AppointmentTypeDetails> {
    return this.types.update(accountId, id, request);
  }

  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.types.delete(accountId, id);
  }
}
