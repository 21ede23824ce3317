import { Allow, IsString, MaxLength, ValidateIf } from 'class-validator';
import {
  IsEmailAddress,
  IsMultiLine,
  IsName,
  IsNameUpdate,
  IsSingleLine,
  IsUrlOrEmpty,
  Optional,
  Trim,
} from '../../common/http/attributes';
import { BookingLimit } from './booking-limit';

/** Absent or "" (no address) is not validated; anything else must be one e-mail address. */
const OptionalOrEmpty = () =>
  ValidateIf((_: object, value: unknown) => value !== undefined && value !== '');

/*
 * The attributes create and update share. `timezone`, `hours` and `overrides` are only let through
 * here: the commands check them, because their errors name the value or the problem found in it
 * (`Invalid timezone "Mars/Olympus".`), which a constraint's fixed message cannot.
 */
class CalendarAttributes {
  @Trim()
  @OptionalOrEmpty()
  @MaxLength(254)
  @IsEmailAddress()
  @IsString()
  email?: string;

  @Trim()
  @OptionalOrEmpty()
  @MaxLength(254)
  @IsEmailAddress()
  @IsString()
  replyTo?: string;

  @Trim()
  @Optional()
  @IsMultiLine()
  @MaxLength(4000)
  @IsString()
  description?: string;

  @Trim()
  @Optional()
  @IsSingleLine()
  @MaxLength(255)
  @IsString()
  location?: string;

  @Trim()
  @Optional()
  @IsUrlOrEmpty()
  @IsString()
  image?: string;

  @Trim()
  @Optional()
  @IsUrlOrEmpty()
  @IsString()
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
