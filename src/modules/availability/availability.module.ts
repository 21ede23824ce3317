import { Module } from '@nestjs/common';
import { handlersOf } from '../../common/cqrs/handlers-of';
import { AvailabilityController } from './availability.controller';
import * as availabilityQueries from './availability.queries';
import * as blockCommands from './block.commands';
import * as blockQueries from './block.queries';
import { BlockRepository } from './block.repository';
import { BlocksController } from './blocks.controller';
import { busyTimeTables } from './busy-time.repository';
import { CalendarLocks } from './calendar-locks.repository';
import { SlotContexts } from './slot-context.repository';
import { SlotPlacement } from './slot-placement';

/** Which times can be booked: the slot engine's data, `/availability/*` and blocks. */
@Module({
  imports: [busyTimeTables],
  controllers: [AvailabilityController, BlocksController],
  providers: [
    BlockRepository,
    CalendarLocks,
    SlotPlacement,
    SlotContexts,
    ...handlersOf(availabilityQueries, blockCommands, blockQueries),
  ],
  exports: [CalendarLocks, SlotPlacement, SlotContexts],
})
export class AvailabilityModule {}
