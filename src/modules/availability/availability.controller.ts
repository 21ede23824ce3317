import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBasicAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ExpectedJsonObjectError } from '../../common/errors/domain-error';
import { CurrentPrincipal, type Principal } from '../accounts';
import {
  AvailableClassesQuery,
  AvailableDatesQuery,
  AvailableTimesQuery,
  CheckTimesQuery,
} from './availability.queries';
import {
  AvailableClassesRequest,
  AvailableDatesRequest,
  AvailableTimesRequest,
} from './availability.requests';
import { ApiAvailableClasses } from './availability.openapi';
import {
  AVAILABLE_DATE,
  AVAILABLE_TIME,
  type AvailableClass,
  type AvailableDate,
  type AvailableTime,
  CHECKED_TIME,
  type CheckedTime,
  TIME_TO_CHECK,
} from './availability.views';
import { ApiView } from '../../common/openapi/view-schema';
import { ApiErrors } from '../../common/openapi/api-errors';

@ApiTags('availability')
@ApiBasicAuth()
@Controller('availability')
export class AvailabilityController {
  constructor(private readonly queries: QueryBus) {}

  @Get('dates')
  @ApiOperation({ summary: 'The dates of a month with at least one bookable time' })
  @ApiView(AVAILABLE_DATE, { list: true })
  @ApiErrors({ 400: ['invalid_addon', 'invalid_appointment_type', 'invalid_calendar'] })
  dates(
    @CurrentPrincipal() principal: Principal,
    @Query() request: AvailableDatesRequest,
  ): Promise<AvailableDate[]> {
    return this.queries.execute(new AvailableDatesQuery(principal.account, request));
  }

  @Get('times')
  @ApiOperation({ summary: 'The bookable times of a date' })
  @ApiView(AVAILABLE_TIME, { list: true })
  @ApiErrors({ 400: ['invalid_addon', 'invalid_appointment_type', 'invalid_calendar'] })
  times(
    @CurrentPrincipal() principal: Principal,
    @Query() request: AvailableTimesRequest,
  ): Promise<readonly AvailableTime[]> {
    return this.queries.execute(new AvailableTimesQuery(principal.account, request));
  }

  @Get('classes')
  @ApiAvailableClasses()
  classes(
    @CurrentPrincipal() principal: Principal,
    @Query() request: AvailableClassesRequest,
  ): Promise<AvailableClass[]> {
    return this.queries.execute(new AvailableClassesQuery(principal.account, request));
  }

  @Post('check-times')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Check whether times are bookable',
    description:
      'One time (an object) or several (an array); each is answered with `valid` and, when not, ' +
      'the `reason` POST /appointments would give.',
  })
  @ApiBody({
    schema: { oneOf: [TIME_TO_CHECK, { type: 'array', minItems: 1, items: TIME_TO_CHECK }] },
  })
  @ApiView(CHECKED_TIME, { list: true })
  checkTimes(
    @CurrentPrincipal() principal: Principal,
    @Body() body: unknown,
  ): Promise<CheckedTime[]> {
    const items = Array.isArray(body) ? (body as unknown[]) : [body];
    if (items.length === 0 || !items.every(isObject)) throw new ExpectedJsonObjectError();
    return this.queries.execute(new CheckTimesQuery(principal.account, items));
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
