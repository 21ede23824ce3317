import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { OptionalNullable } from '../../common/http/attributes';

/** The highest booking limit a type or calendar takes (its column is a SMALLINT). */
const MAX_BOOKING_LIMIT = 10_000;

const DESCRIPTIONS = {
  day:
    "At most this many live appointments (and holds) a local day of the calendar's zone; " +
    'admins are exempt. null: no limit.',
  week: 'As `maxPerDay`, a week (ISO: Monday 00:00 to Monday). null: no limit.',
};

/** `maxPerDay` or `maxPerWeek` of a type or calendar: 1 to MAX_BOOKING_LIMIT, or null for none. */
export function BookingLimit(per: 'day' | 'week'): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      nullable: true,
      minimum: 1,
      maximum: MAX_BOOKING_LIMIT,
      description: DESCRIPTIONS[per],
    }),
    OptionalNullable(),
    Max(MAX_BOOKING_LIMIT),
    Min(1),
    IsInt(),
  );
}
