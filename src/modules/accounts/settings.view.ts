import type { Account } from './account.entity';
import type { UpdateSettingsRequest } from './settings.requests';
import { LANGUAGES } from '../../common/i18n/languages';
import {
  field,
  flag,
  int,
  list,
  oneOf,
  orNull,
  text,
  viewSchema,
  type ViewType,
} from '../../common/openapi/view-schema';

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
  'firstDayOfWeek',
] as const satisfies readonly (keyof UpdateSettingsRequest & keyof Account)[];

type PlainSettings = Pick<Account, (typeof PLAIN_SETTINGS)[number]>;

/** The account-wide booking rules and the pages' language and look (`GET/PUT /settings`), in order. */
export type SettingsView = ViewType<typeof SETTINGS_VIEW>;

export function toSettingsView(account: Account): SettingsView {
  const plain = Object.fromEntries(PLAIN_SETTINGS.map((key) => [key, account[key]]));
  return {
    timezone: account.timezone,
    ...(plain as PlainSettings),
    embedOrigins: account.embedOrigins ?? [],
    language: account.language,
    accentColor: account.accentColor,
    logoUrl: account.logoUrl,
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
  firstDayOfWeek: int(
    1,
    "The day the client pages' month calendar starts its weeks on: 0 Sunday, 1 Monday … 6 " +
      'Saturday (default 0).',
  ),
  embedOrigins: list(
    text('https://www.example.com'),
    'The sites that may embed the scheduling page (its frame-ancestors).',
  ),
  language: oneOf(
    LANGUAGES,
    'en',
    "The client pages', e-mails' and SMS' language; a booking made on a page keeps the language " +
      'it was made in.',
  ),
  accentColor: orNull(
    field<string>({
      type: 'string',
      pattern: '^#[0-9a-f]{6}$',
      example: '#1a73e8',
      description:
        "`#rrggbb` (lower case): the pages' buttons, links and focus outline; `null`: the house " +
        'colour. Its contrast against white is at least 4.5:1 (WCAG AA).',
    }),
  ),
  logoUrl: orNull(
    text(
      'https://www.example.com/logo.png',
      "An https URL of the business's logo, shown at the top of every page; `null`: none.",
    ),
  ),
});
