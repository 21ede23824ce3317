import { Module } from '@nestjs/common';
import { AvailabilityModule } from '../availability';
import {
  CreateSlotHoldHandler,
  ExtendSlotHoldHandler,
  ReleaseSlotHoldHandler,
} from './slot-hold.commands';
import { GetSlotHoldHandler } from './slot-hold.queries';
import { SlotHoldRepository } from './slot-hold.repository';
import { SlotHoldsController } from './slot-holds.controller';

/** `/slot-holds` (API side). The holds are availability's busy time; the sweeper is the worker's. */
@Module({
  imports: [AvailabilityModule],
  controllers: [SlotHoldsController],
  providers: [
    CreateSlotHoldHandler,
    ExtendSlotHoldHandler,
    GetSlotHoldHandler,
    ReleaseSlotHoldHandler,
    SlotHoldRepository,
  ],
})
export class HoldsModule {}
