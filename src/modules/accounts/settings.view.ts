import type { Account } from './account.entity';
import { flag, int, list, text, viewSchema } from '../../common/openapi/view-schema';

/** The account-wide booking rules (`GET/PUT /settings`). */
export interface SettingsView {
  timezone: string;
  minHoursInAdvance: number;
  maxDaysInAdvance: number;
  requirePhone: boolean;
  sendConfirmationEmail: boolean;
  sendSms: boolean;
  reminderHours: number;
  /** How often, in minutes, the worker reads the calendars' busy sources (calendar sync). */
  calendarSyncMinutes: number;
  holdMaxMinutes: number;
  maxLiveHolds: number;
  pageHoldsPerAddress: number;
  pageHoldDayShare: number;
  clientChangeMinHours: number;
  embedOrigins: string[];
}

export function toSettingsView(account: Account): SettingsView {
  return {
    timezone: account.timezone,
    minHoursInAdvance: account.minHoursInAdvance,
    maxDaysInAdvance: account.maxDaysInAdvance,
    requirePhone: account.requirePhone,
    sendConfirmationEmail: account.sendConfirmationEmail,
    sendSms: account.sendSms,
    reminderHours: account.reminderHours,
    calendarSyncMinutes: account.calendarSyncMinutes,
    holdMaxMinutes: account.holdMaxMinutes,
    maxLiveHolds: account.maxLiveHolds,
    pageHoldsPerAddress: account.pageHoldsPerAddress,
    pageHoldDayShare: account.pageHoldDayShare,
    clientChangeMinHours: account.clientChangeMinHours,
    embedOrigins: account.embedOrigins ?? [],
  };
}

export const SETTINGS_VIEW = viewSchema<SettingsView>('SettingsView', {
  timezone: text('America/New_York'),
  minHoursInAdvance: int(2),
  maxDaysInAdvance: int(60),
  requirePhone: flag(false),
  sendConfirmationEmail: flag(true),
  sendSms: flag(false),
  reminderHours: int(24),
  calendarSyncMinutes: int(15),
  holdMaxMinutes: int(15),
  maxLiveHolds: int(
    100,
    'At most this many slot holds made through the API are live at once (1–10000); one more is ' +
      '429 `too_many_holds`.',
  ),
  pageHoldsPerAddress: int(
    3,
    'At most this many holds of the scheduling page are live at once from one network (an IPv4 ' +
      'address, an IPv6 /64): 0–50; 0: the page holds no time.',
  ),
  pageHoldDayShare: int(
    50,
    "The percentage of a day's offered times that holds of the scheduling page may take at once " +
      '(0–100; 0: the page holds no time).',
  ),
  clientChangeMinHours: int(
    24,
    'A client may cancel or reschedule up to this many hours before the start (0: until it starts).',
  ),
  embedOrigins: list(
    text('https://www.example.com'),
    'The sites that may embed the scheduling page (its frame-ancestors).',
  ),
});
