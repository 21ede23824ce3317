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

  /** At most this many API slot holds live at once: 1 to 10000. */
  @Optional()
  @Max(10_000)
  @Min(1)
  @IsInt()
  maxLiveHolds?: number;

  /** At most this many scheduling-page holds live at once from one network: 0 (none) to 50. */
  @Optional()
  @Max(50)
  @Min(0)
  @IsInt()
  pageHoldsPerAddress?: number;

  /** The percentage of a day's times scheduling-page holds may take: 0 (none) to 100. */
  @Optional()
  @Max(100)
  @Min(0)
  @IsInt()
  pageHoldDayShare?: number;

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
