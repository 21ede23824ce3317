import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId, CurrentPrincipal, type Principal } from '../accounts';
import { CreateCalendarRequest, UpdateCalendarRequest } from './calendar.requests';
import type { CalendarDetailsView, CalendarView } from './calendar.view';
import { CalendarsService } from './calendars.service';

@ApiTags('catalog')
@ApiBasicAuth()
@Controller('calendars')
export class CalendarsController {
  constructor(private readonly calendars: CalendarsService) {}

  @Get()
  list(@CurrentAccountId() accountId: number): Promise<CalendarView[]> {
    return this.calendars.list(accountId);
  }

  @Get(`:id${NUMERIC}`)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<CalendarDetailsView> {
    return this.calendars.get(accountId, id);
  }

  @Post()
  @HttpCode(200)
  create(
    @CurrentPrincipal() principal: Principal,
    @Body() request: CreateCalendarRequest,
  ): Promise<CalendarDetailsView> {
    return this.calendars.create(principal.accountId, principal.account.timezone, request);
  }

  @Put(`:id${NUMERIC}`)
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateCalendarRequest,
  ): Promise<CalendarDetailsView> {
    return this.calendars.update(accountId, id, request);
  }

  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.calendars.delete(accountId, id);
  }
}
