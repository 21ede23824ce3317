import {
  BUSY_SOURCE_TYPES,
  type BusySource,
  type BusySourceState,
  type BusySourceType,
} from './busy-source.entity';
import { LAST_ERRORS } from './calendar-sync.errors';
import { classViewSchema, field, num, str, type ViewType } from '../../common/openapi/view-schema';

/** The `lastError`s a source may show, quoted, a status as `<status>`. */
const LAST_ERROR_LIST = Object.values(LAST_ERRORS)
  .map((message) => `"${typeof message === 'string' ? message : message('<status>')}"`)
  .join(', ');

/** What the worker last made of a source (see docs/calendar-sync.md). */
const BUSY_SOURCE_STATUS = classViewSchema('BusySourceStatus', {
  state: field<BusySourceState>({
    type: 'string',
    enum: ['pending', 'ok', 'error'],
    description:
      '`pending`: not read yet; `ok`: the last sync read it (its busy time counts); `error`: the last ' +
      'sync failed (`lastError` says why) and the busy time of its last good read still counts.',
  }),
  lastSyncAt: field<string | null>({
    type: ['string', 'null'],
    format: 'date-time',
    description: 'The last sync attempt (UTC), null before the first.',
  }),
  lastSuccessAt: field<string | null>({
    type: ['string', 'null'],
    format: 'date-time',
    description: 'When its busy time was last read whole (UTC).',
  }),
  eventsRead: num(12, 'Busy events the last full read found in the window.'),
  lastError: field<string | null>({
    type: ['string', 'null'],
    description: `Why the last attempt failed, null when it did not: one of ${LAST_ERROR_LIST} (docs/calendar-sync.md says what to do about each).`,
    example: null,
  }),
});

/** A busy source as its owner sees it: never its password, only whether it has one. */
export const BUSY_SOURCE_VIEW = classViewSchema('BusySourceView', {
  id: num(1),
  calendarID: num(7),
  type: field<BusySourceType>({ type: 'string', enum: [...BUSY_SOURCE_TYPES] }),
  url: str('https://caldav.example.com/dav/calendars/jane/work/'),
  username: str('jane', '"" when none.'),
  hasPassword: field<boolean>({
    type: 'boolean',
    description: 'Whether a password is stored (it is never shown).',
  }),
  status: BUSY_SOURCE_STATUS.ref,
});

export type BusySourceView = ViewType<typeof BUSY_SOURCE_VIEW>;

export function toBusySourceView(source: BusySource): BusySourceView {
  return {
    id: source.id,
    calendarID: source.calendarId,
    type: source.type,
    url: source.url,
    username: source.username,
    hasPassword: source.sealedPassword !== null,
    status: {
      state: source.state,
      lastSyncAt: source.lastSyncAt?.toISOString() ?? null,
      lastSuccessAt: source.lastSuccessAt?.toISOString() ?? null,
      eventsRead: source.eventsRead,
      lastError: source.lastError,
    },
  };
}

/** `GET /calendars/{id}/feed`: where the calendar's feed is. */
export const CALENDAR_FEED_VIEW = classViewSchema('CalendarFeedView', {
  url: str(
    'https://booking.example.com/api/v1/calendar-feeds/3f…9a.ics',
    'The secret address of the calendar’s iCalendar feed: anyone with it reads the schedule.',
  ),
});

export type CalendarFeedView = ViewType<typeof CALENDAR_FEED_VIEW>;
