import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BusySource } from './busy-source.entity';
import { BusySourceSync } from './busy-source-sync';
import { BusySourceScheduler } from './busy-source-scheduler';
import { ExternalBusySpan } from './external-busy-span.entity';

/** The worker side of calendar sync: the passes that read due sources, and their metrics. */
@Module({
  imports: [TypeOrmModule.forFeature([BusySource, ExternalBusySpan])],
  providers: [BusySourceSync, BusySourceScheduler],
  exports: [BusySourceSync],
})
export class CalendarSyncWorkerModule {}
