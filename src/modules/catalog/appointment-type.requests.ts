import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import {
  BooleanQuery,
  COLOR_PATTERN,
  IsMoney,
  IsMultiLine,
  IsNameUpdate,
  IsSingleLine,
  IsUrlOrEmpty,
  Optional,
  OptionalNullable,
  Trim,
} from '../../common/http/attributes';
import { IsIdList } from '../../common/http/id-list';
import { APPOINTMENT_KINDS, type AppointmentKind } from './appointment-type.entity';

const MINUTES_IN_A_DAY = 1440;
const MAX_LINKS = 100;
/** The highest booking limit a type or calendar takes (its column is a SMALLINT). */
export const MAX_BOOKING_LIMIT = 10_000;
const COLOR_OR_EMPTY = new RegExp(`^$|${COLOR_PATTERN.source}`, 'i');

/*
 * One shape for create and update: every attribute is optional here, and what a create requires
 * (name, duration, classSize for classes) is checked by the service, which knows the stored type.
 * An update leaves out what it does not change; `null` clears only the nullable rules.
 */
export class AppointmentTypeAttributes {
  @IsNameUpdate()
  name?: string;

  @Optional()
  @IsBoolean()
  active?: boolean;

  @Optional()
  @IsMultiLine()
  @MaxLength(4000)
  @IsString()
  description?: string;

  /** Minutes. */
  @Optional()
  @Max(MINUTES_IN_A_DAY)
  @Min(1)
  @IsInt()
  duration?: number;

  @Optional()
  @IsMoney()
  price?: number | string;

  @Trim()
  @Optional()
  @IsSingleLine()
  @MaxLength(255)
  @IsString()
  category?: string;

  @Optional()
  @Matches(COLOR_OR_EMPTY)
  @IsString()
  color?: string;

  @Optional()
  @IsBoolean()
  private?: boolean;

  @Optional()
  @IsIn(APPOINTMENT_KINDS)
  type?: AppointmentKind;

  @OptionalNullable()
  @Max(10_000)
  @Min(1)
  @IsInt()
  classSize?: number | null;

  @Optional()
  @Max(MINUTES_IN_A_DAY)
  @Min(0)
  @IsInt()
  paddingBefore?: number;

  @Optional()
  @Max(MINUTES_IN_A_DAY)
  @Min(0)
  @IsInt()
  paddingAfter?: number;

  @Optional()
  @IsIdList({ maxSize: MAX_LINKS })
  calendarIDs?: number[];

  @Optional()
  @IsIdList({ maxSize: MAX_LINKS })
  addonIDs?: number[];

  @Optional()
  @IsIdList({ maxSize: MAX_LINKS })
  formIDs?: number[];

  @Optional()
  @IsUrlOrEmpty()
  image?: string;

  /** Minutes between offered start times; null = the duration. */
  @OptionalNullable()
  @Max(MINUTES_IN_A_DAY)
  @Min(1)
  @IsInt()
  slotInterval?: number | null;

  /** null = the account's setting. */
  @OptionalNullable()
  @Max(8760)
  @Min(0)
  @IsInt()
  minHoursInAdvance?: number | null;

  /** null = the account's setting. */
  @OptionalNullable()
  @Max(3650)
  @Min(1)
  @IsInt()
  maxDaysInAdvance?: number | null;

  @Optional()
  @IsBoolean()
  requireSmsOptIn?: boolean;

  /** At most this many live appointments a local day (calendar's zone); null: no limit. */
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_BOOKING_LIMIT,
    description:
      "At most this many live appointments (and holds) a local day of the calendar's zone; " +
      'admins are exempt. null: no limit.',
  })
  @OptionalNullable()
  @Max(MAX_BOOKING_LIMIT)
  @Min(1)
  @IsInt()
  maxPerDay?: number | null;

  /** At most this many live appointments an ISO week (calendar's zone); null: no limit. */
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_BOOKING_LIMIT,
    description: 'As `maxPerDay`, a week (ISO: Monday 00:00 to Monday). null: no limit.',
  })
  @OptionalNullable()
  @Max(MAX_BOOKING_LIMIT)
  @Min(1)
  @IsInt()
  maxPerWeek?: number | null;
}

export class ListAppointmentTypesQuery {
  @BooleanQuery()
  @Optional()
  @IsBoolean()
  includeDeleted?: boolean;
}
