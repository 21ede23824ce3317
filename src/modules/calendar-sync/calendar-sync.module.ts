import { Module } from '@nestjs/common';
import { handlersOf } from '../../common/cqrs/handlers-of';
import * as busySourceCommands from './busy-source.commands';
import * as busySourceQueries from './busy-source.queries';
import { BusySourceRepository, calendarSyncTables } from './busy-source.repository';
import * as calendarFeedCommands from './calendar-feed.commands';
import { CalendarFeedController } from './calendar-feed.controller';
import * as calendarFeedQueries from './calendar-feed.queries';
import { CalendarFeedRepository } from './calendar-feed.repository';
import { CalendarSyncController } from './calendar-sync.controller';

/** The API side of calendar sync: busy sources under a calendar, its feed's address, the feed. */
@Module({
  imports: [calendarSyncTables],
  controllers: [CalendarSyncController, CalendarFeedController],
  providers: [
    BusySourceRepository,
    CalendarFeedRepository,
    ...handlersOf(busySourceCommands, busySourceQueries, calendarFeedCommands, calendarFeedQueries),
  ],
})
export class CalendarSyncModule {}
