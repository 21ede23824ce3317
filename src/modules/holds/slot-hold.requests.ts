import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { SUPPORTED_YEARS_RULE } from '../../common/time/calendar-dates';

/* Only let through: the command checks them in booking's order and codes (no constraint can). */

/** `POST /slot-holds`. */
export class CreateSlotHoldRequest {
  @ApiProperty({ description: 'The appointment type to hold a time of.', example: 12 })
  @Allow()
  appointmentTypeID?: unknown;

  @ApiProperty({
    description:
      "The start to hold, read in the calendar's zone when `calendarID` is given, else the " +
      `account's (as POST /appointments reads it). ${SUPPORTED_YEARS_RULE}`,
    example: '2030-06-03T09:00:00-0400',
  })
  @Allow()
  datetime?: unknown;

  @ApiPropertyOptional({
    description: "The calendar; without it, the first of the type's calendars free then.",
    example: 7,
  })
  @Allow()
  calendarID?: unknown;

  @ApiPropertyOptional({
    description: 'Addons the client will book: they lengthen the time held.',
    type: [Number],
    example: [3],
  })
  @Allow()
  addonIDs?: unknown;

  @ApiPropertyOptional({
    description: "The client's zone (IANA): the hold's times are shown in it.",
    example: 'America/New_York',
  })
  @Allow()
  timezone?: unknown;

  @ApiPropertyOptional({
    description:
      "How long to hold, in minutes: 5 by default, at most the account's `holdMaxMinutes` " +
      '(settings; 30 at most).',
    example: 5,
  })
  @Allow()
  minutes?: unknown;
}

/** `PUT /slot-holds/{id}`. */
export class ExtendSlotHoldRequest {
  @ApiProperty({
    description:
      'The hold now ends this many minutes from now; at most `holdMaxMinutes` after it was made.',
    example: 10,
  })
  @Allow()
  minutes?: unknown;
}
