import type { Account } from './account.entity';

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
    clientChangeMinHours: account.clientChangeMinHours,
    embedOrigins: account.embedOrigins ?? [],
  };
}
