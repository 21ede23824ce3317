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
import { Optional } from '../../common/http/attributes';

export const MAX_REMINDER_HOURS = 720;
/** At most this many sites may frame the client pages. */
export const MAX_EMBED_ORIGINS = 20;

/** A slot hold lasts at most this long, whatever the account sets (docs/api.md, Slot holds). */
export const MAX_HOLD_MINUTES = 30;

/** `PUT /settings`: the attributes given change, the others stay. */
export class UpdateSettingsRequest {
  /** IANA zone; checked by the service so that the message can name the value. */
  @Optional()
  @IsString()
  timezone?: string;

  @Optional()
  @Max(8760)
  @Min(0)
  @IsInt()
  minHoursInAdvance?: number;

  @Optional()
  @Max(3650)
  @Min(1)
  @IsInt()
  maxDaysInAdvance?: number;

  @Optional()
  @IsBoolean()
  requirePhone?: boolean;

  @Optional()
  @IsBoolean()
  sendConfirmationEmail?: boolean;

  @Optional()
  @IsBoolean()
  sendSms?: boolean;

  /** Hours before an appointment its reminder goes; 0 = no reminders. At most 30 days. */
  @Optional()
  @Max(MAX_REMINDER_HOURS)
  @Min(0)
  @IsInt()
  reminderHours?: number;

  /** How often the calendars' busy sources are read, in minutes: 1 to a day (default 5). */
  @Optional()
  @Max(1440)
  @Min(1)
  @IsInt()
  calendarSyncMinutes?: number;
  /** The longest a slot hold lasts from its creation: 1 to 30 minutes. */
  @Optional()
  @Max(MAX_HOLD_MINUTES)
  @Min(1)
  @IsInt()
  holdMaxMinutes?: number;

  /**
   * A client may cancel or reschedule until this many hours before the start (0: until it
   * starts). At most a year.
   */
  @Optional()
  @Max(8760)
  @Min(0)
  @IsInt()
  clientChangeMinHours?: number;

  /** The sites allowed to frame the client pages (`https://shop.example`); [] for none. */
  @Optional()
  @MaxLength(255, { each: true })
  @IsString({ each: true })
  @ArrayMaxSize(MAX_EMBED_ORIGINS)
  @IsArray()
  embedOrigins?: string[];
}
