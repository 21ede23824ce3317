import { Module } from '@nestjs/common';
import { AvailabilityController } from './availability.controller';
import {
  AvailableClassesHandler,
  AvailableDatesHandler,
  AvailableTimesHandler,
  CheckTimesHandler,
} from './availability.queries';
import { CreateBlockHandler, DeleteBlockHandler } from './block.commands';
import { GetBlockHandler, ListBlocksHandler } from './block.queries';
import { BlockRepository } from './block.repository';
import { BlocksController } from './blocks.controller';
import { busyTimeTables } from './busy-time.repository';
import { CalendarLocks } from './calendar-locks.repository';
import { SlotPlacement } from './slot-placement';

/** Which times can be booked: the slot engine's data, `/availability/*` and blocks. */
@Module({
  imports: [busyTimeTables],
  controllers: [AvailabilityController, BlocksController],
  providers: [
    AvailableDatesHandler,
    AvailableTimesHandler,
    AvailableClassesHandler,
    CheckTimesHandler,
    BlockRepository,
    CreateBlockHandler,
    DeleteBlockHandler,
    ListBlocksHandler,
    GetBlockHandler,
    CalendarLocks,
    SlotPlacement,
  ],
  exports: [CalendarLocks, SlotPlacement],
})
export class AvailabilityModule {}
