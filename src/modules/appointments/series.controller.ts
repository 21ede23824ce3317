import { Body, Controller, Get, Headers, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { BusController } from '../../common/cqrs/bus-controller';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentPrincipal, type Principal } from '../accounts';
import { bookingModeOf } from './book-appointment.requests';
import { BookSeriesCommand } from './book-series.command';
import { BookSeriesRequest, CheckSeriesRequest } from './book-series.requests';
import { CancelAppointmentRequest } from './cancel-appointment.requests';
import { CancelSeriesCommand } from './series.commands';
import { ApiBookSeries, ApiCancelSeries, ApiCheckSeries, ApiGetSeries } from './series.openapi';
import { CheckSeriesQuery, GetSeriesQuery } from './series.queries';
import type { CheckedOccurrence, SeriesView } from './series.view';

/** Recurring appointments (docs/series.md). */
@ApiTags('appointment-series')
@ApiBasicAuth()
@Controller()
export class SeriesController extends BusController {
  @Post('appointment-series')
  @HttpCode(200)
  @ApiBookSeries()
  book(
    @CurrentPrincipal() principal: Principal,
    @Body() request: BookSeriesRequest,
    @Query('admin') admin: unknown,
    @Query('noEmail') noEmail: unknown,
    @Headers('idempotency-key') idempotencyKey: unknown,
  ): Promise<SeriesView> {
    const mode = bookingModeOf(admin, noEmail);
    return this.commands.execute(
      new BookSeriesCommand(principal.account, request, mode, idempotencyKey),
    );
  }

  @Get(`appointment-series/:id${NUMERIC}`)
  @ApiGetSeries()
  get(@CurrentPrincipal() principal: Principal, @IdParam() id: number): Promise<SeriesView> {
    return this.queries.execute(new GetSeriesQuery(principal.account.id, id));
  }

  @Put(`appointment-series/:id${NUMERIC}/cancel`)
  @ApiCancelSeries()
  cancel(
    @CurrentPrincipal() principal: Principal,
    @IdParam() id: number,
    @Body() request: CancelAppointmentRequest,
    @Query('admin') admin: unknown,
    @Query('noEmail') noEmail: unknown,
  ): Promise<SeriesView> {
    const mode = bookingModeOf(admin, noEmail);
    return this.commands.execute(new CancelSeriesCommand(principal.account, id, request, mode));
  }

  @Post('availability/check-series')
  @HttpCode(200)
  @ApiCheckSeries()
  check(
    @CurrentPrincipal() principal: Principal,
    @Body() request: CheckSeriesRequest,
  ): Promise<CheckedOccurrence[]> {
    return this.queries.execute(new CheckSeriesQuery(principal.account, request));
  }
}
