import { Module } from '@nestjs/common';
import { CreateBusySourceHandler, DeleteBusySourceHandler } from './busy-source.commands';
import { GetBusySourceHandler, ListBusySourcesHandler } from './busy-source.queries';
import { BusySourceRepository, calendarSyncTables } from './busy-source.repository';
import { IssueCalendarFeedHandler } from './calendar-feed.commands';
import { CalendarFeedController } from './calendar-feed.controller';
import { RenderCalendarFeedHandler } from './calendar-feed.queries';
import { CalendarFeedRepository } from './calendar-feed.repository';
import { CalendarSyncController } from './calendar-sync.controller';

/** The API side of calendar sync: busy sources under a calendar, its feed's address, the feed. */
@Module({
  imports: [calendarSyncTables],
  controllers: [CalendarSyncController, CalendarFeedController],
  providers: [
    BusySourceRepository,
    CalendarFeedRepository,
    CreateBusySourceHandler,
    DeleteBusySourceHandler,
    GetBusySourceHandler,
    IssueCalendarFeedHandler,
    ListBusySourcesHandler,
    RenderCalendarFeedHandler,
  ],
})
export class CalendarSyncModule {}
