import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId, CurrentPrincipal, type Principal } from '../accounts';
import { CreateCalendarRequest, UpdateCalendarRequest } from './calendar.requests';
import {
  CALENDAR_DETAILS_VIEW,
  CALENDAR_VIEW,
  type CalendarDetailsView,
  type CalendarView,
} from './calendar.view';
import {
  CreateCalendarCommand,
  DeleteCalendarCommand,
  UpdateCalendarCommand,
} from './calendar.commands';
import { GetCalendarQuery, ListCalendarsQuery } from './calendar.queries';
import { ApiView } from '../../common/openapi/view-schema';

@ApiTags('catalog')
@ApiBasicAuth()
@Controller('calendars')
export class CalendarsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @ApiOperation({ summary: 'List the calendars' })
  @ApiView(CALENDAR_VIEW, { list: true })
  @Get()
  list(@CurrentAccountId() accountId: number): Promise<CalendarView[]> {
    return this.queries.execute(new ListCalendarsQuery(accountId));
  }

  @ApiOperation({ summary: 'Read a calendar' })
  @ApiView(CALENDAR_DETAILS_VIEW)
  @Get(`:id${NUMERIC}`)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<CalendarDetailsView> {
    return this.queries.execute(new GetCalendarQuery(accountId, id));
  }

  @ApiOperation({ summary: 'Create a calendar' })
  @ApiView(CALENDAR_DETAILS_VIEW)
  @Post()
  @HttpCode(200)
  create(
    @CurrentPrincipal() principal: Principal,
    @Body() request: CreateCalendarRequest,
  ): Promise<CalendarDetailsView> {
    return this.commands.execute(
      new CreateCalendarCommand(principal.accountId, principal.account.timezone, request),
    );
  }

  @ApiOperation({ summary: 'Change a calendar' })
  @ApiView(CALENDAR_DETAILS_VIEW)
  @Put(`:id${NUMERIC}`)
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateCalendarRequest,
  ): Promise<CalendarDetailsView> {
    return this.commands.execute(new UpdateCalendarCommand(accountId, id, request));
  }

  @ApiOperation({ summary: 'Delete a calendar' })
  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteCalendarCommand(accountId, id));
  }
}
