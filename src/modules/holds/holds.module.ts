import { Module } from '@nestjs/common';
import { AvailabilityModule } from '../availability';
import { SlotHoldsController } from './slot-holds.controller';
import { SlotHoldsService } from './slot-holds.service';

/** `/slot-holds` (API side). The holds are availability's busy time; the sweeper is the worker's. */
@Module({
  imports: [AvailabilityModule],
  controllers: [SlotHoldsController],
  providers: [SlotHoldsService],
  exports: [SlotHoldsService],
})
export class HoldsModule {}
