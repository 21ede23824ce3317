import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsString, Matches, MaxLength } from 'class-validator';
import {
  BooleanQuery,
  COLOR_PATTERN,
  IsMoney,
  IsNameUpdate,
  IsSingleLine,
  IsUrlOrEmpty,
  Optional,
  Trim,
} from '../../common/http/attributes';
import { IsIdList } from '../../common/http/id-list';
import { BookingLimit } from './booking-limit';
import { Recurrence, type RecurrenceSettings } from './recurrence-settings';
import {
  type Assignment,
  AssignmentAttribute,
  type AssignmentWeights,
  WeightsAttribute,
} from './team-assignment';
import { APPOINTMENT_KINDS, type AppointmentKind } from './appointment-type.entity';
import { IsDescription, IsIntBetween, IsIntBetweenOrNull } from './catalog-attributes';

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

  @IsDescription()
  description?: string;

  @IsIntBetween(1, MINUTES_IN_A_DAY)
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

  @IsIntBetweenOrNull(1, 10_000)
  classSize?: number | null;

  @IsIntBetween(0, MINUTES_IN_A_DAY)
  paddingBefore?: number;

  @IsIntBetween(0, MINUTES_IN_A_DAY)
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
  @IsIdList({ maxSize: MAX_LINKS })
  resourceIDs?: number[];

  @Optional()
  @IsUrlOrEmpty()
  image?: string;

  /** Minutes between offered start times; null = the duration. */
  @IsIntBetweenOrNull(1, MINUTES_IN_A_DAY)
  slotInterval?: number | null;

  /** null = the account's setting. */
  @IsIntBetweenOrNull(0, 8760)
  minHoursInAdvance?: number | null;

  /** null = the account's setting. */
  @IsIntBetweenOrNull(1, 3650)
  maxDaysInAdvance?: number | null;

  @Optional()
  @IsBoolean()
  requireSmsOptIn?: boolean;

  @BookingLimit('day')
  maxPerDay?: number | null;

  @BookingLimit('week')
  maxPerWeek?: number | null;

  @Recurrence()
  recurrence?: RecurrenceSettings | null;

  @AssignmentAttribute()
  assignment?: Assignment;

  @WeightsAttribute()
  weights?: AssignmentWeights | null;

  /** Services only: every calendar of the type takes each appointment together. */
  @ApiPropertyOptional({
    type: 'boolean',
    description:
      'Every calendar of the type takes each appointment together (a meeting of several people): ' +
      'a time is offered when all are free, an appointment keeps all busy. Services only.',
  })
  @Optional()
  @IsBoolean()
  collective?: boolean;
}

export class ListAppointmentTypesRequest {
  @BooleanQuery()
  @Optional()
  @IsBoolean()
  includeDeleted?: boolean;
}
