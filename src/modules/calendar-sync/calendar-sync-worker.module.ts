import { Module } from '@nestjs/common';
import { BusySourceRepository, calendarSyncTables } from './busy-source.repository';
import { BusySourceSync } from './busy-source-sync';
import { BusySourceScheduler } from './busy-source-scheduler';

/** The worker side of calendar sync: the passes that read due sources, and their metrics. */
@Module({
  imports: [calendarSyncTables],
  providers: [BusySourceRepository, BusySourceSync, BusySourceScheduler],
  exports: [BusySourceSync],
})
export class CalendarSyncWorkerModule {}
