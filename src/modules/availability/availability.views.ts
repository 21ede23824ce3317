import { ApiProperty } from '@nestjs/swagger';
import {
  date,
  datetime,
  flag,
  int,
  namedSchema,
  text,
  viewSchema,
} from '../../common/openapi/view-schema';
import { SUPPORTED_YEARS_RULE } from '../../common/time/calendar-dates';

/** `GET /availability/dates`. */
export interface AvailableDate {
  date: string;
}

/** `GET /availability/times`: a start, and how many calendars (or class seats) can take it. */
export interface AvailableTime {
  time: string;
  slotsAvailable: number;
}

/** `GET /availability/classes`, as clients of the reference service know it. */
export class AvailableClass {
  @ApiProperty({ description: "The session's id.", example: 31 })
  id!: number;

  @ApiProperty({ example: 12 })
  appointmentTypeID!: number;

  @ApiProperty({ example: 7 })
  calendarID!: number;

  @ApiProperty({ description: "The session's name (its type's, unless named).", example: 'Yoga' })
  name!: string;

  @ApiProperty({
    description: "`YYYY-MM-DDThh:mm:ss+hhmm`, in `timezone` when asked, else the calendar's zone.",
    example: '2030-06-03T07:00:00-0400',
  })
  time!: string;

  @ApiProperty({ description: "The calendar's name.", example: 'Studio' })
  calendar!: string;

  @ApiProperty({ description: 'Minutes.', example: 60 })
  duration!: number;

  @ApiProperty({
    description: 'Sessions here are single dates, never part of a recurring series.',
    example: false,
  })
  isSeries!: boolean;

  @ApiProperty({ description: "Seats: the type's classSize.", example: 8 })
  slots!: number;

  @ApiProperty({ description: 'Seats left.', example: 3 })
  slotsAvailable!: number;
}

/** `POST /availability/check-times`: the item as asked, and whether booking it would succeed. */
export interface CheckedTime {
  datetime?: unknown;
  appointmentTypeID?: unknown;
  calendarID?: unknown;
  addonIDs?: unknown;
  valid: boolean;
  /** The `error` code POST /appointments would give. */
  reason?: string;
}

export const AVAILABLE_DATE = viewSchema<AvailableDate>('AvailableDate', {
  date: date('2030-06-03', 'A date with at least one bookable time.'),
});

export const AVAILABLE_TIME = viewSchema<AvailableTime>('AvailableTime', {
  time: datetime('2030-06-03T10:15:00-0400', "In `timezone` when asked, else the calendar's zone."),
  slotsAvailable: int(1, 'Calendars (or class seats) that can take it.'),
});

const echoed = (description: string) => ({ description: `${description}, as asked.` });

export const CHECKED_TIME = viewSchema<CheckedTime>(
  'CheckedTime',
  {
    datetime: echoed('The time'),
    appointmentTypeID: echoed('The type'),
    calendarID: echoed('The calendar'),
    addonIDs: echoed('The addons'),
    valid: flag(true, 'Whether POST /appointments would book it now.'),
    reason: text(
      'not_available',
      'When not valid: the `error` code POST /appointments would give.',
    ),
  },
  'One time asked, and whether it is bookable.',
  ['datetime', 'appointmentTypeID', 'calendarID', 'addonIDs', 'reason'],
);

/** One item of POST /availability/check-times: what POST /appointments would be given. */
export const TIME_TO_CHECK = namedSchema('TimeToCheck', {
  type: 'object',
  required: ['datetime', 'appointmentTypeID'],
  properties: {
    datetime: datetime(
      '2030-06-03T10:15:00-0400',
      `As POST /appointments reads it. ${SUPPORTED_YEARS_RULE}`,
    ),
    appointmentTypeID: { type: 'integer', minimum: 1, example: 1 },
    calendarID: { type: 'integer', minimum: 1, example: 1 },
    addonIDs: { type: 'array', items: { type: 'integer', minimum: 1 } },
    timezone: text('America/New_York'),
  },
});
