import type { Account } from './account.entity';
import type { UpdateSettingsRequest } from './settings.requests';
import { flag, int, list, text, viewSchema, type ViewType } from '../../common/openapi/view-schema';

/** The settings shown and stored as they are sent (the zone and the origins are normalised). */
export const PLAIN_SETTINGS = [
  'minHoursInAdvance',
  'maxDaysInAdvance',
  'requirePhone',
  'sendConfirmationEmail',
  'sendSms',
  'reminderHours',
  'calendarSyncMinutes',
  'holdMaxMinutes',
  'maxLiveHolds',
  'pageHoldsPerAddress',
  'pageHoldDayShare',
  'clientChangeMinHours',
] as const satisfies readonly (keyof UpdateSettingsRequest & keyof Account)[];

type PlainSettings = Pick<Account, (typeof PLAIN_SETTINGS)[number]>;

/** The account-wide booking rules (`GET/PUT /settings`), in this order. */
export type SettingsView = ViewType<typeof SETTINGS_VIEW>;

export function toSettingsView(account: Account): SettingsView {
  const plain = Object.fromEntries(PLAIN_SETTINGS.map((key) => [key, account[key]]));
  return {
    timezone: account.timezone,
    ...(plain as PlainSettings),
    embedOrigins: account.embedOrigins ?? [],
  };
}

export const SETTINGS_VIEW = viewSchema('SettingsView', {
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
