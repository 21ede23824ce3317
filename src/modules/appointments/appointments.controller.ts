import { Body, Controller, Get, Headers, HttpCode, Post, Put, Query } from '@nestjs/common';
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
import { CancelAppointmentCommand } from './cancel-appointment.command';
import { CancelAppointmentRequest } from './cancel-appointment.request';
import { ListAppointmentsQuery, fieldFilters } from './list-appointments.request';
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

  /** The account's appointments, latest first; `field:ID=value` filters by a form answer. */
  @Get()
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
