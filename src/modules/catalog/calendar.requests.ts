import { applyDecorators } from '@nestjs/common';
import { Allow, IsString, MaxLength, ValidateIf } from 'class-validator';
import {
  IsEmailAddress,
  IsName,
  IsNameUpdate,
  IsSingleLine,
  IsUrlOrEmpty,
  Optional,
  Trim,
} from '../../common/http/attributes';
import { BookingLimit } from './booking-limit';
import { IsDescription } from './catalog-attributes';

/** One e-mail address, trimmed; absent or "" (no address) is not validated. */
const IsEmailOrEmpty = () =>
  applyDecorators(
    IsString(),
    IsEmailAddress(),
    MaxLength(254),
    ValidateIf((_: object, value: unknown) => value !== undefined && value !== ''),
    Trim(),
  );

/** An absolute http(s) URL or "", trimmed. */
const IsImageUrl = () => applyDecorators(IsString(), IsUrlOrEmpty(), Optional(), Trim());

/*
 * The attributes create and update share. `timezone`, `hours` and `overrides` are only let through
 * here: the commands check them, because their errors name the value or the problem found in it
 * (`Invalid timezone "Mars/Olympus".`), which a constraint's fixed message cannot.
 */
class CalendarAttributes {
  @IsEmailOrEmpty()
  email?: string;

  @IsEmailOrEmpty()
  replyTo?: string;

  @Trim()
  @IsDescription()
  description?: string;

  @Trim()
  @Optional()
  @IsSingleLine()
  @MaxLength(255)
  @IsString()
  location?: string;

  @IsImageUrl()
  image?: string;

  @IsImageUrl()
  thumbnail?: string;

  @Allow()
  timezone?: unknown;

  @Allow()
  hours?: unknown;

  @Allow()
  overrides?: unknown;

  @BookingLimit('day')
  maxPerDay?: number | null;

  @BookingLimit('week')
  maxPerWeek?: number | null;
}

export class CreateCalendarRequest extends CalendarAttributes {
  @IsName()
  name!: string;
}

/** A partial update: what is left out is unchanged; `hours` and `overrides` are replaced whole. */
export class UpdateCalendarRequest extends CalendarAttributes {
  @IsNameUpdate()
  name?: string;
}
