import { Module } from '@nestjs/common';
import { handlersOf } from '../../common/cqrs/handlers-of';
import { AvailabilityModule } from '../availability';
import * as slotHoldCommands from './slot-hold.commands';
import * as slotHoldQueries from './slot-hold.queries';
import { SlotHoldRepository } from './slot-hold.repository';
import { SlotHoldsController } from './slot-holds.controller';

/** `/slot-holds` (API side). The holds are availability's busy time; the sweeper is the worker's. */
@Module({
  imports: [AvailabilityModule],
  controllers: [SlotHoldsController],
  providers: [SlotHoldRepository, ...handlersOf(slotHoldCommands, slotHoldQueries)],
})
export class HoldsModule {}
