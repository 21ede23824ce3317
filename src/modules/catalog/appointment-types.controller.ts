import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import {
  ApiBasicAuth,
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/api-errors';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import { AppointmentTypeAttributes, ListAppointmentTypesQuery } from './appointment-type.requests';
import { AppointmentTypeDetails, AppointmentTypeView } from './appointment-type.view';
import { AppointmentTypesService } from './appointment-types.service';

@ApiTags('catalog')
@ApiBasicAuth()
@Controller('appointment-types')
export class AppointmentTypesController {
  constructor(private readonly types: AppointmentTypesService) {}

  /** The reference shape; `?includeDeleted=true` adds the soft-deleted types. */
  @Get()
  @ApiBearerAuth()
  @ApiOperation({
    summary: "The account's appointment types",
    description:
      "In the reference's shape, by id. Deleted types are listed with `includeDeleted=true` " +
      '(`active: false`).',
  })
  @ApiQuery({
    name: 'includeDeleted',
    required: false,
    description: 'Also the deleted types.',
    schema: { type: 'boolean', default: false },
  })
  @ApiOkResponse({ type: AppointmentTypeView, isArray: true })
  @ApiErrors({ 400: ['invalid_include_deleted'] })
  list(
    @CurrentAccountId() accountId: number,
    @Query() query: ListAppointmentTypesQuery,
  ): Promise<AppointmentTypeView[]> {
    return this.types.list(accountId, query.includeDeleted ?? false);
  }

  @Get(`:id${NUMERIC}`)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'An appointment type',
    description:
      "Every field of the list's shape, as the list shows it, then the scheduling rules " +
      '(`slotInterval`, `minHoursInAdvance`, `maxDaysInAdvance`, `requireSmsOptIn`) and the booking ' +
      'limits (`maxPerDay`, `maxPerWeek`). A deleted ' +
      "type is still read (`active: false`): appointments refer to it. Another account's type " +
      'is 403, an id that exists nowhere 404.',
  })
  @ApiParam({
    name: 'id',
    description: "The type's id.",
    schema: { type: 'integer', minimum: 1, example: 12 },
  })
  @ApiOkResponse({ type: AppointmentTypeDetails })
  @ApiErrors({ 403: ['forbidden'], 404: ['not_found'] })
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
