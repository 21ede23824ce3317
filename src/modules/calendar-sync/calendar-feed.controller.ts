import { Controller, Get, Param, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/http/public.decorator';
import { ApiErrors } from '../../common/openapi/api-errors';
import { RenderCalendarFeedQuery } from './calendar-feed.queries';

/** The published feed: no credentials, the secret in the path (calendar apps send none). */
@ApiTags('calendar sync')
@Public()
@Controller('calendar-feeds')
export class CalendarFeedController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':file')
  @ApiOperation({
    summary: "A calendar's schedule as iCalendar (the secret feed address)",
    description:
      'Its live appointments and blocks, from 30 days ago on, times in UTC; each appointment with ' +
      'its stable UID and SEQUENCE. No authentication: the address is the secret.',
  })
  @ApiParam({ name: 'file', description: '`<token>.ics`, as `GET /calendars/{id}/feed` gives it.' })
  @ApiProduces('text/calendar')
  @ApiResponse({
    status: 200,
    description: 'The feed (RFC 5545).',
    content: { 'text/calendar': { schema: { type: 'string' } } },
  })
  @ApiErrors({ 404: ['not_found'] }, { authenticated: false })
  async feed(
    @Param('file') file: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const body = await this.queries.execute(new RenderCalendarFeedQuery(file));
    // Set once the feed is found: a refusal stays the JSON envelope.
    reply.header('content-type', 'text/calendar; charset=utf-8');
    reply.header('cache-control', 'private, max-age=300');
    return body;
  }
}
