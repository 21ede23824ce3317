import { ApiProperty } from '@nestjs/swagger';
import {
  BUSY_SOURCE_TYPES,
  type BusySource,
  type BusySourceState,
  type BusySourceType,
} from './busy-source.entity';

/** What the worker last made of a source (see docs/calendar-sync.md). */
export class BusySourceStatus {
  @ApiProperty({
    enum: ['pending', 'ok', 'error'],
    description:
      '`pending`: not read yet; `ok`: the last sync read it (its busy time counts); `error`: the last ' +
      'sync failed (`lastError` says why) and the busy time of its last good read still counts.',
  })
  state!: BusySourceState;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    description: 'The last sync attempt (UTC), null before the first.',
  })
  lastSyncAt!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    description: 'When its busy time was last read whole (UTC).',
  })
  lastSuccessAt!: string | null;

  @ApiProperty({ description: 'Busy events the last full read found in the window.', example: 12 })
  eventsRead!: number;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Why the last attempt failed, null when it did not: one of "The calendar server could not be ' +
      'reached.", "The calendar server took too long to answer.", "The calendar server refused the ' +
      'request (HTTP <status>).", "The calendar server answered with an error (HTTP <status>).", ' +
      '"The calendar is too large.", "The calendar has too many events.", "The address is not a ' +
      'calendar.", "The calendar address redirects too many times.", "The calendar address is not ' +
      'allowed.", "The sync was interrupted; it will be tried again.", "The calendar could not be ' +
      'read; it will be tried again." (docs/calendar-sync.md says what to do about each).',
    example: null,
  })
  lastError!: string | null;
}

/** A busy source as its owner sees it: never its password, only whether it has one. */
export class BusySourceView {
  @ApiProperty({ example: 1 })
  id!: number;

  @ApiProperty({ example: 7 })
  calendarID!: number;

  @ApiProperty({ enum: BUSY_SOURCE_TYPES })
  type!: BusySourceType;

  @ApiProperty({ example: 'https://caldav.example.com/dav/calendars/jane/work/' })
  url!: string;

  @ApiProperty({ description: '"" when none.', example: 'jane' })
  username!: string;

  @ApiProperty({ description: 'Whether a password is stored (it is never shown).' })
  hasPassword!: boolean;

  @ApiProperty({ type: BusySourceStatus })
  status!: BusySourceStatus;
}

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
export class CalendarFeedView {
  @ApiProperty({
    description:
      'The secret address of the calendar’s iCalendar feed: anyone with it reads the schedule.',
    example: 'https://booking.example.com/api/v1/calendar-feeds/3f…9a.ics',
  })
  url!: string;
}
