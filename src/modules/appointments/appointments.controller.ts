import { Body, Controller, Get, Headers, HttpCode, Post, Put, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentPrincipal, type Principal } from '../accounts';
import type { AppointmentView } from './appointment.view';
import { AppointmentsQueries } from './appointments.queries';
import { BookAppointmentCommand } from './book-appointment.command';
import { BookAppointmentRequest } from './book-appointment.request';
import { CancelAppointmentCommand } from './cancel-appointment.command';
import { CancelAppointmentRequest } from './cancel-appointment.request';
import { ApiGetAppointment, ApiListAppointments } from './appointment.openapi';
import { ApiBookAppointment } from './book-appointment.openapi';
import {
  GetAppointmentQuery,
  ListAppointmentsQuery,
  fieldFilters,
} from './list-appointments.request';
import { RescheduleAppointmentCommand } from './reschedule-appointment.command';
import { RescheduleAppointmentRequest } from './reschedule-appointment.request';
import { UpdateAppointmentCommand } from './update-appointment.command';
import { UpdateAppointmentRequest } from './update-appointment.request';

const flag = (value: unknown) => value === 'true' || value === '1';

@ApiTags('appointments')
@ApiBasicAuth()
@Controller('appointments')
export class AppointmentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: AppointmentsQueries,
  ) {}

  /**
   * Books an appointment; `?admin=true` books as the owner, `?noEmail=true` sends no confirmation.
   * With an `Idempotency-Key` header, the same request again answers the appointment it booked.
   */
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
    const mode = { admin: flag(admin), noEmail: flag(noEmail) };
    return this.commands.execute(
      new BookAppointmentCommand(principal.account, request, mode, idempotencyKey),
    );
  }

  @Get(`:id${NUMERIC}`)
  @ApiGetAppointment()
  get(
    @CurrentPrincipal() principal: Principal,
    @IdParam() id: number,
    @Query() query: GetAppointmentQuery,
  ): Promise<AppointmentView> {
    return this.queries.get(principal.account.id, id, query);
  }

  /** The account's appointments, latest first; `field:ID=value` filters by a form answer. */
  @Get()
  @ApiListAppointments()
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListAppointmentsQuery,
    @Query() raw: Record<string, unknown>,
  ): Promise<AppointmentView[]> {
    return this.queries.list(principal.account, query, fieldFilters(raw));
  }

  /** Edits the client's side; `?admin=true` may also set `notes` and `certificate`. */
  @Put(`:id${NUMERIC}`)
  update(
    @CurrentPrincipal() principal: Principal,
    @IdParam() id: number,
    @Body() request: UpdateAppointmentRequest,
    @Query('admin') admin: unknown,
  ): Promise<AppointmentView> {
    return this.commands.execute(
      new UpdateAppointmentCommand(principal.account, id, request, { admin: flag(admin) }),
    );
  }

  @Put(`:id${NUMERIC}/cancel`)
  cancel(
    @CurrentPrincipal() principal: Principal,
    @IdParam() id: number,
    @Body() request: CancelAppointmentRequest,
    @Query('admin') admin: unknown,
    @Query('noEmail') noEmail: unknown,
  ): Promise<AppointmentView> {
    return this.commands.execute(
      new CancelAppointmentCommand(principal.account, id, request, {
        admin: flag(admin),
        noEmail: flag(noEmail),
      }),
    );
  }

  @Put(`:id${NUMERIC}/reschedule`)
  reschedule(
    @CurrentPrincipal() principal: Principal,
    @IdParam() id: number,
    @Body() request: RescheduleAppointmentRequest,
    @Query('admin') admin: unknown,
    @Query('noEmail') noEmail: unknown,
  ): Promise<AppointmentView> {
    return this.commands.execute(
      new RescheduleAppointmentCommand(principal.account, id, request, {
        admin: flag(admin),
        noEmail: flag(noEmail),
      }),
    );
  }
}
