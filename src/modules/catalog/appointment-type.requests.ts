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
import { BookingLimit } from './booking-limit';
import { APPOINTMENT_KINDS, type AppointmentKind } from './appointment-type.entity';

const MINUTES_IN_A_DAY = 1440;
const MAX_LINKS = 100;
const COLOR_OR_EMPTY = new RegExp(`^$|${COLOR_PATTERN.source}`, 'i');

/*
 * One shape for create and update: every attribute is optional here, and what a create requires
 * (name, duration, classSize for classes) is checked by the commands, which know the stored type.
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

  @BookingLimit('day')
  maxPerDay?: number | null;

  @BookingLimit('week')
  maxPerWeek?: number | null;
}

export class ListAppointmentTypesRequest {
  @BooleanQuery()
  @Optional()
  @IsBoolean()
  includeDeleted?: boolean;
}
