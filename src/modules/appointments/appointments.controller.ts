import { Body, Controller, Get, Headers, HttpCode, Post, Put, Query } from '@nestjs/common';
import { BusController } from '../../common/cqrs/bus-controller';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentPrincipal, type Principal } from '../accounts';
import type { AppointmentView } from './appointment.view';
import { GetAppointmentQuery, ListAppointmentsQuery } from './appointment.queries';
import { BookAppointmentCommand } from './book-appointment.command';
import { BookAppointmentRequest, bookingModeOf, queryFlag } from './book-appointment.requests';
import { CancelAppointmentCommand } from './cancel-appointment.command';
import { CancelAppointmentRequest } from './cancel-appointment.requests';
import { ApiGetAppointment, ApiListAppointments } from './appointment.openapi';
import { ApiBookAppointment } from './book-appointment.openapi';
import {
  ApiCancelAppointment,
  ApiRescheduleAppointment,
  ApiUpdateAppointment,
} from './change-appointment.openapi';
import {
  GetAppointmentRequest,
  ListAppointmentsRequest,
  fieldFilters,
} from './list-appointments.requests';
import { RescheduleAppointmentCommand } from './reschedule-appointment.command';
import { RescheduleAppointmentRequest } from './reschedule-appointment.requests';
import { UpdateAppointmentCommand } from './update-appointment.command';
import { UpdateAppointmentRequest } from './update-appointment.requests';

@ApiTags('appointments')
@ApiBasicAuth()
@Controller('appointments')
export class AppointmentsController extends BusController {
  @Post()
  @HttpCode(200)
  @ApiBookAppointment()
  book(
    @CurrentPrincipal() principal: Principal,
    @Body() request: BookAppointmentRequest,
    @Query('admin') admin: unknown,
    @Query('noEmail') noEmail: unknown,
    @Headers('idempotency-key') idempotencyKey: unknown,
  ): Promise<AppointmentView> {
    const mode = bookingModeOf(admin, noEmail);
    return this.commands.execute(
      new BookAppointmentCommand(principal.account, request, mode, idempotencyKey),
    );
  }

  @Get(`:id${NUMERIC}`)
  @ApiGetAppointment()
  get(
    @CurrentPrincipal() principal: Principal,
    @IdParam() id: number,
    @Query() query: GetAppointmentRequest,
  ): Promise<AppointmentView> {
    return this.queries.execute(new GetAppointmentQuery(principal.account.id, id, query));
  }

  @Get()
  @ApiListAppointments()
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListAppointmentsRequest,
    @Query() raw: Record<string, unknown>,
  ): Promise<AppointmentView[]> {
    return this.queries.execute(
      new ListAppointmentsQuery(principal.account, query, fieldFilters(raw)),
    );
  }

  @Put(`:id${NUMERIC}`)
  @ApiUpdateAppointment()
  update(
    @CurrentPrincipal() principal: Principal,
    @IdParam() id: number,
    @Body() request: UpdateAppointmentRequest,
    @Query('admin') admin: unknown,
  ): Promise<AppointmentView> {
    return this.commands.execute(
      new UpdateAppointmentCommand(principal.account, id, request, { admin: queryFlag(admin) }),
    );
  }

  @Put(`:id${NUMERIC}/cancel`)
  @ApiCancelAppointment()
  cancel(
    @CurrentPrincipal() principal: Principal,
    @IdParam() id: number,
    @Body() request: CancelAppointmentRequest,
    @Query('admin') admin: unknown,
    @Query('noEmail') noEmail: unknown,
  ): Promise<AppointmentView> {
    const mode = bookingModeOf(admin, noEmail);
    return this.commands.execute(
      new CancelAppointmentCommand(principal.account, id, request, mode),
    );
  }

  @Put(`:id${NUMERIC}/reschedule`)
  @ApiRescheduleAppointment()
  reschedule(
    @CurrentPrincipal() principal: Principal,
    @IdParam() id: number,
    @Body() request: RescheduleAppointmentRequest,
    @Query('admin') admin: unknown,
    @Query('noEmail') noEmail: unknown,
  ): Promise<AppointmentView> {
    const mode = bookingModeOf(admin, noEmail);
    return this.commands.execute(
      new RescheduleAppointmentCommand(principal.account, id, request, mode),
    );
  }
}
