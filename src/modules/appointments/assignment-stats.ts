import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { IsCalendarDate } from '../../common/http/attributes';
import { ApiErrors } from '../../common/openapi/api-errors';
import {
  ApiView,
  type ViewType,
  date,
  datetime,
  field,
  id,
  int,
  listOf,
  num,
  orNull,
  strEnum,
  text,
  viewSchema,
} from '../../common/openapi/view-schema';
import { ASSIGNMENTS } from '../catalog';
import { ACCESS_ERRORS } from './appointment.openapi';
import { QueryParam, asIs } from './list-appointments.requests';

/* `GET /appointment-types/{id}/assignment-stats`: how a type's bookings spread over its team. */

/** `?minDate=&maxDate=`: the local days (the account's zone) whose appointments count; empty: any. */
export class AssignmentStatsRequest {
  @QueryParam(asIs, IsCalendarDate(), IsString())
  minDate?: string;

  @QueryParam(asIs, IsCalendarDate(), IsString())
  maxDate?: string;
}

/** One calendar's line (CALENDAR_STATS). */
export interface CalendarStats {
  calendarID: number;
  name: string;
  appointments: number;
  share: number;
  weight: number;
  targetShare: number;
  lastAssigned: string | null;
}

const CALENDAR_STATS = {
  calendarID: id(7),
  name: text('Ana'),
  appointments: int(20, 'Its live appointments of the type starting in the range.'),
  share: num(0.5, "Its part of the type's appointments in the range (0 to 1, 4 decimals)."),
  weight: int(2, 'Its weight in the type (1 when none is set).'),
  targetShare: num(0.5, 'The part its weight gives it: its weight over the sum of the weights.'),
  lastAssigned: orNull(
    datetime(
      '2030-06-03T09:00:00-0400',
      'When it was last given an appointment of the type (its latest booking, canceled or not, ' +
        'whatever the range), in its zone; null: never.',
    ),
  ),
};

export const ASSIGNMENT_STATS_VIEW = viewSchema('AssignmentStatsView', {
  appointmentTypeID: id(5),
  assignment: strEnum(ASSIGNMENTS, 'round-robin'),
  minDate: orNull(date('2030-06-01')),
  maxDate: orNull(date('2030-06-30')),
  appointments: int(40, 'Live appointments of the type on its calendars starting in the range.'),
  calendars: listOf(
    field<CalendarStats>({
      type: 'object',
      required: Object.keys(CALENDAR_STATS),
      properties: CALENDAR_STATS,
    }),
    [
      {
        calendarID: 7,
        name: 'Ana',
        appointments: 20,
        share: 0.5,
        weight: 2,
        targetShare: 0.5,
        lastAssigned: '2030-06-28T15:00:00-0400',
      },
    ],
    "The type's live calendars, ascending id.",
  ),
});

export type AssignmentStatsView = ViewType<typeof ASSIGNMENT_STATS_VIEW>;

export const ApiAssignmentStats = () =>
  applyDecorators(
    ApiOperation({
      summary: "How a type's appointments spread over its calendars",
      description:
        'Per calendar of the type: its live appointments starting from `minDate` to `maxDate` ' +
        "(inclusive, local days of the account's zone; either left out: unbounded), its share " +
        'of them, its weight and the share that weight gives it, and when it was last assigned ' +
        'one: so that a business can see its round-robin or balanced team is treated fairly ' +
        '(docs/team-scheduling.md).',
    }),
    ApiParam({
      name: 'id',
      description: "The appointment type's id.",
      schema: { type: 'integer', minimum: 1, example: 5 },
    }),
    ApiQuery({ name: 'minDate', required: false, schema: { type: 'string', format: 'date' } }),
    ApiQuery({ name: 'maxDate', required: false, schema: { type: 'string', format: 'date' } }),
    ApiView(ASSIGNMENT_STATS_VIEW),
    ApiErrors({ ...ACCESS_ERRORS, 400: ['invalid_min_date', 'invalid_max_date'] }),
  );
