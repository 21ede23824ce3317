import { Body, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { BusController } from '../../common/cqrs/bus-controller';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiQuery } from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/api-errors';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import {
  CreateAppointmentTypeCommand,
  DeleteAppointmentTypeCommand,
  UpdateAppointmentTypeCommand,
} from './appointment-type.commands';
import { GetAppointmentTypeQuery, ListAppointmentTypesQuery } from './appointment-type.queries';
import {
  AppointmentTypeAttributes,
  ListAppointmentTypesRequest,
} from './appointment-type.requests';
import {
  APPOINTMENT_TYPE_DETAILS,
  type AppointmentTypeDetails,
  APPOINTMENT_TYPE_VIEW,
  type AppointmentTypeView,
} from './appointment-type.view';
import { CatalogController } from './catalog-routes';
import { ApiView } from '../../common/openapi/view-schema';

/** What creating or changing a type may be refused for, beyond its attributes' own codes. */
const TYPE_ERRORS = [
  'invalid_addon',
  'invalid_calendar',
  'invalid_form',
  'invalid_resource',
  'required_class_size',
  'required_duration',
  'required_name',
];

@CatalogController('appointment-types')
export class AppointmentTypesController extends BusController {
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
  @ApiView(APPOINTMENT_TYPE_VIEW, { list: true, description: 'OK' })
  @ApiErrors({ 400: ['invalid_include_deleted'] })
  list(
    @CurrentAccountId() accountId: number,
    @Query() request: ListAppointmentTypesRequest,
  ): Promise<AppointmentTypeView[]> {
    return this.queries.execute(
      new ListAppointmentTypesQuery(accountId, request.includeDeleted ?? false),
    );
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
  @ApiView(APPOINTMENT_TYPE_DETAILS)
  @ApiErrors({ 403: ['forbidden'], 404: ['not_found'] })
  get(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
  ): Promise<AppointmentTypeDetails> {
    return this.queries.execute(new GetAppointmentTypeQuery(accountId, id));
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create an appointment type' })
  @ApiView(APPOINTMENT_TYPE_DETAILS)
  @ApiErrors({ 400: TYPE_ERRORS })
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: AppointmentTypeAttributes,
  ): Promise<AppointmentTypeDetails> {
    return this.commands.execute(new CreateAppointmentTypeCommand(accountId, request));
  }

  @Put(`:id${NUMERIC}`)
  @ApiOperation({ summary: 'Change an appointment type' })
  @ApiView(APPOINTMENT_TYPE_DETAILS)
  @ApiErrors({ 400: TYPE_ERRORS })
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: AppointmentTypeAttributes,
  ): Promise<AppointmentTypeDetails> {
    return this.commands.execute(new UpdateAppointmentTypeCommand(accountId, id, request));
  }

  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete an appointment type',
    description: 'It stays on its appointments, and is listed with `includeDeleted=true`.',
  })
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteAppointmentTypeCommand(accountId, id));
  }
}
