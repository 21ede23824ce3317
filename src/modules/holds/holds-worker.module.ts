import { Module } from '@nestjs/common';
import { HoldSweeper } from './hold-sweeper';
import { SlotHoldRepository } from './slot-hold.repository';

/** Worker side of holds: the sweeper that deletes expired rows (tidiness, not correctness). */
@Module({ providers: [HoldSweeper, SlotHoldRepository] })
export class HoldsWorkerModule {}
