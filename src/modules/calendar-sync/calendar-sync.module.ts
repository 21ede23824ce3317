import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Calendar } from '../catalog';
import { BusySource } from './busy-source.entity';
import { BusySourcesService } from './busy-sources.service';
import { CalendarFeed } from './calendar-feed.entity';
import { CalendarFeedController } from './calendar-feed.controller';
import { CalendarFeedsService } from './calendar-feeds.service';
import { CalendarSyncController } from './calendar-sync.controller';
import { ExternalBusySpan } from './external-busy-span.entity';

/** The API side of calendar sync: busy sources under a calendar, its feed's address, the feed. */
@Module({
  imports: [TypeOrmModule.forFeature([BusySource, ExternalBusySpan, CalendarFeed, Calendar])],
  controllers: [CalendarSyncController, CalendarFeedController],
  providers: [BusySourcesService, CalendarFeedsService],
})
export class CalendarSyncModule {}
