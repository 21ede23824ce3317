import { ApiProperty } from '@nestjs/swagger';

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
