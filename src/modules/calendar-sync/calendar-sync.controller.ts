import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post } from '@nestjs/common';
import { BusController } from '../../common/cqrs/bus-controller';
import {
  ApiBasicAuth,
  ApiNoContentResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { ApiErrors } from '../../common/openapi/api-errors';
import { CurrentAccountId } from '../accounts';
import { CreateBusySourceRequest } from './busy-source.requests';
import { CreateBusySourceCommand, DeleteBusySourceCommand } from './busy-source.commands';
import { GetBusySourceQuery, ListBusySourcesQuery } from './busy-source.queries';
import {
  BUSY_SOURCE_VIEW,
  type BusySourceView,
  CALENDAR_FEED_VIEW,
  type CalendarFeedView,
} from './busy-source.view';
import { IssueCalendarFeedCommand } from './calendar-feed.commands';
import { ApiView } from '../../common/openapi/view-schema';

const SOURCE = `:id${NUMERIC}/busy-sources/:sourceId${NUMERIC}`;
const CALENDAR_ERRORS = { 403: ['forbidden'], 404: ['not_found'] };
const SourceIdParam = () => Param('sourceId', ParseIntPipe);

/**
 * Calendar sync, under the calendar (docs/calendar-sync.md): the busy sources whose busy time blocks
 * it, and the secret address of its schedule as an iCalendar feed.
 */
@ApiTags('calendar sync')
@ApiBasicAuth()
@ApiParam({ name: 'id', description: 'The calendar.', type: Number })
@Controller('calendars')
export class CalendarSyncController extends BusController {
  @Get(`:id${NUMERIC}/busy-sources`)
  @ApiOperation({ summary: "List the calendar's busy sources, with their status" })
  @ApiView(BUSY_SOURCE_VIEW, { list: true, description: 'In the order they were added.' })
  @ApiErrors(CALENDAR_ERRORS)
  list(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<BusySourceView[]> {
    return this.queries.execute(new ListBusySourcesQuery(accountId, id));
  }

  @Post(`:id${NUMERIC}/busy-sources`)
  @HttpCode(200)
  @ApiOperation({
    summary: 'Add a busy source: an iCalendar feed or a CalDAV calendar',
    description:
      "The staff member's own calendar, whose busy events block the calendar's times. The worker " +
      'reads it within a minute, then every `calendarSyncMinutes` (5 by default); its `status` ' +
      'says how that went. The URL follows the outbound rules of webhook targets; a host name ' +
      'that resolves to a loopback, private or reserved address is refused as such an address is ' +
      '(unless the operator allows private sources).',
  })
  @ApiView(BUSY_SOURCE_VIEW, { description: 'The source added (`state: pending`).' })
  @ApiErrors({
    400: [
      'required_type',
      'invalid_type',
      'required_url',
      'invalid_url',
      'invalid_username',
      'invalid_password',
      'bad_request',
      'too_many_sources',
    ],
    ...CALENDAR_ERRORS,
    415: ['unsupported_media_type'],
  })
  create(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: CreateBusySourceRequest,
  ): Promise<BusySourceView> {
    return this.commands.execute(new CreateBusySourceCommand(accountId, id, request));
  }

  @Get(SOURCE)
  @ApiOperation({ summary: 'Get a busy source and its status' })
  @ApiParam({ name: 'sourceId', type: Number })
  @ApiView(BUSY_SOURCE_VIEW)
  @ApiErrors(CALENDAR_ERRORS)
  get(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @SourceIdParam() sourceId: number,
  ): Promise<BusySourceView> {
    return this.queries.execute(new GetBusySourceQuery(accountId, id, sourceId));
  }

  @Delete(SOURCE)
  @HttpCode(204)
  @ApiOperation({
    summary: 'Remove a busy source',
    description: 'Its busy time stops blocking the calendar at once.',
  })
  @ApiParam({ name: 'sourceId', type: Number })
  @ApiNoContentResponse({ description: 'Removed.' })
  @ApiErrors(CALENDAR_ERRORS)
  delete(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @SourceIdParam() sourceId: number,
  ): Promise<void> {
    return this.commands.execute(new DeleteBusySourceCommand(accountId, id, sourceId));
  }

  @Get(`:id${NUMERIC}/feed`)
  @ApiOperation({
    summary: "The secret address of the calendar's iCalendar feed",
    description:
      "The calendar's appointments and blocks as iCalendar, for its staff member to subscribe to " +
      'from their calendar app. The address is made on first use and stays until rotated.',
  })
  @ApiView(CALENDAR_FEED_VIEW)
  @ApiErrors(CALENDAR_ERRORS)
  feed(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<CalendarFeedView> {
    return this.commands.execute(new IssueCalendarFeedCommand(accountId, id));
  }

  @Post(`:id${NUMERIC}/feed/rotate`)
  @HttpCode(200)
  @ApiOperation({
    summary: "Give the calendar's feed a new secret address",
    description: 'The old address answers 404 from now on.',
  })
  @ApiView(CALENDAR_FEED_VIEW, { description: 'The new address.' })
  @ApiErrors(CALENDAR_ERRORS)
  rotate(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<CalendarFeedView> {
    return this.commands.execute(new IssueCalendarFeedCommand(accountId, id, true));
  }
}
