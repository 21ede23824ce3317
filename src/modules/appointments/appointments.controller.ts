import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentPrincipal } from '../accounts/auth.decorators';
import type { Principal } from '../accounts/principal';
import type { AppointmentView } from './appointment.view';
import { AppointmentsQueries } from './appointments.queries';
import { BookAppointmentCommand } from './book-appointment.command';
import { BookAppointmentRequest } from './book-appointment.request';

const flag = (value: unknown) => value === 'true' || value === '1';

@ApiTags('appointments')
@ApiBasicAuth()
@Controller('appointments')
export class AppointmentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: AppointmentsQueries,
  ) {}

  /** Books an appointment; `?admin=true` books as the owner, `?noEmail=true` sends no confirmation. */
  @Post()
  @HttpCode(200)
  book(
    @CurrentPrincipal() principal: Principal,
    @Body() request: BookAppointmentRequest,
    @Query('admin') admin: unknown,
    @Query('noEmail') noEmail: unknown,
  ): Promise<AppointmentView> {
    return this.commands.execute(
      new BookAppointmentCommand(principal.account, request, {
        admin: flag(admin),
        noEmail: flag(noEmail),
      }),
    );
  }

  @Get(`:id${NUMERIC}`)
  get(@CurrentPrincipal() principal: Principal, @IdParam() id: number): Promise<AppointmentView> {
    return this.queries.get(principal.account.id, id);
  }
}
