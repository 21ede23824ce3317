import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsInt, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import {
  IsEmailAddress,
  IsMultiLine,
  IsName,
  IsNameUpdate,
  IsSingleLine,
  IsUrlOrEmpty,
  Optional,
  OptionalNullable,
  Trim,
} from '../../common/http/attributes';
import { MAX_BOOKING_LIMIT } from './appointment-type.requests';

/** Absent or "" (no address) is not validated; anything else must be one e-mail address. */
const OptionalOrEmpty = () =>
  ValidateIf((_: object, value: unknown) => value !== undefined && value !== '');

/*
 * The attributes create and update share. `timezone`, `hours` and `overrides` are only let through
 * here: the service checks them, because their errors name the value or the problem found in it
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

export class CreateCalendarRequest extends CalendarAttributes {
  @IsName()
  name!: string;
}

/** A partial update: what is left out is unchanged; `hours` and `overrides` are replaced whole. */
export class UpdateCalendarRequest extends CalendarAttributes {
  @IsNameUpdate()
  name?: string;
}
