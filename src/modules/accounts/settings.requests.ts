import { applyDecorators } from '@nestjs/common';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { IfGiven, Optional } from '../../common/http/attributes';

export const MAX_REMINDER_HOURS = 720;
export const MAX_EMBED_ORIGINS = 20;

/** A slot hold lasts at most this long, whatever the account sets (docs/api.md, Slot holds). */
export const MAX_HOLD_MINUTES = 30;

/** An optional whole number from `min` to `max`, checked in the order stacked decorators run. */
const OptionalInt = (min: number, max: number) =>
  applyDecorators(IsInt(), Min(min), Max(max), Optional());

/** `PUT /settings`: the attributes given change, the others stay. */
export class UpdateSettingsRequest {
  /** IANA zone; checked by the command so that the message can name the value. */
  @IfGiven(IsString())
  timezone?: string;

  @OptionalInt(0, 8760)
  minHoursInAdvance?: number;

  @OptionalInt(1, 3650)
  maxDaysInAdvance?: number;

  @IfGiven(IsBoolean())
  requirePhone?: boolean;

  @IfGiven(IsBoolean())
  sendConfirmationEmail?: boolean;

  @IfGiven(IsBoolean())
  sendSms?: boolean;

  @OptionalInt(0, MAX_REMINDER_HOURS)
  reminderHours?: number;

  @OptionalInt(1, 1440)
  calendarSyncMinutes?: number;

  @OptionalInt(1, MAX_HOLD_MINUTES)
  holdMaxMinutes?: number;

  @OptionalInt(1, 10_000)
  maxLiveHolds?: number;

  @OptionalInt(0, 50)
  pageHoldsPerAddress?: number;

  @OptionalInt(0, 100)
  pageHoldDayShare?: number;

  @OptionalInt(0, 8760)
  clientChangeMinHours?: number;

  @Optional()
  @MaxLength(255, { each: true })
  @IsString({ each: true })
  @ArrayMaxSize(MAX_EMBED_ORIGINS)
  @IsArray()
  embedOrigins?: string[];
}
