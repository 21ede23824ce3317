import { Body, Controller, Get, Headers, HttpCode, Post, Query } from '@nestjs/common';
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
import { IdempotencyKeys } from './idempotency-keys';

const flag = (value: unknown) => value === 'true' || value === '1';

@ApiTags('appointments')
@ApiBasicAuth()
@Controller('appointments')
export class AppointmentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: AppointmentsQueries,
    private readonly idempotencyKeys: IdempotencyKeys,
  ) {}

  /**
   * Books an appointment; `?admin=true` books as the owner, `?noEmail=true` sends no confirmation.
   * With an `Idempotency-Key` header, the same request again answers the appointment it booked.
   */
  @Post()
  @HttpCode(200)
  async book(
    @CurrentPrincipal() principal: Principal,
    @Body() request: BookAppointmentRequest,
    @Query('admin') admin: unknown,
    @Query('noEmail') noEmail: unknown,
    @Headers('idempotency-key') idempotencyKey: unknown,
  ): Promise<AppointmentView> {
    const mode = { admin: flag(admin), noEmail: flag(noEmail) };
    const accountId = principal.account.id;
    const claim = this.idempotencyKeys.claim(idempotencyKey, request, mode);
    const replay = claim && (await this.idempotencyKeys.bookedBy(accountId, claim));
    if (replay) return this.queries.get(accountId, replay);
    try {
      return await this.commands.execute(
        new BookAppointmentCommand(principal.account, request, mode, claim),
      );
    } catch (e) {
      // Another request with this key booked while this one waited (on the calendar's lock or the
      // key's row) and then found its slot taken or its key used: answer the first one's booking.
      const booked = claim && (await this.idempotencyKeys.bookedBy(accountId, claim));
      if (booked) return this.queries.get(accountId, booked);
      throw e;
    }
  }

  @Get(`:id${NUMERIC}`)
  get(@CurrentPrincipal() principal: Principal, @IdParam() id: number): Promise<AppointmentView> {
    return this.queries.get(principal.account.id, id);
  }
}
