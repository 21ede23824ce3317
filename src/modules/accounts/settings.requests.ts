import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
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
import { IfGiven, Optional, OptionalNullable } from '../../common/http/attributes';
import { LANGUAGES } from '../../common/i18n/languages';

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

  /** 0 Sunday … 6 Saturday: where the pages' month calendar starts its weeks. */
  @OptionalInt(0, 6)
  firstDayOfWeek?: number;

  @Optional()
  @MaxLength(255, { each: true })
  @IsString({ each: true })
  @ArrayMaxSize(MAX_EMBED_ORIGINS)
  @IsArray()
  embedOrigins?: string[];

  /* The three below are checked by the command: its message names the value and says why. */

  @ApiPropertyOptional({
    enum: [...LANGUAGES],
    description:
      "The client pages', e-mails' and SMS' language (a booking made on a page keeps its own); " +
      'anything else is 400 `invalid_language`.',
  })
  @IfGiven(IsString())
  language?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '#1a73e8',
    description:
      "`#rrggbb`: the pages' buttons, links and focus outline, stored lower case; `null`: the " +
      'house colour. White text goes on it, so its contrast against white must be at least 4.5:1 ' +
      '(WCAG AA), else 400 `invalid_accent_color`.',
  })
  @OptionalNullable()
  @IsString()
  accentColor?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 2048,
    example: 'https://www.example.com/logo.png',
    description:
      "An https URL of the business's logo, shown at the top of every page (without user name or " +
      'password; the host name letters, digits, dots and hyphens); `null`: none. Otherwise 400 ' +
      '`invalid_logo_url`.',
  })
  @OptionalNullable()
  @IsString()
  logoUrl?: string | null;
}
