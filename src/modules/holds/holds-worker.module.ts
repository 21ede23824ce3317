import { Module } from '@nestjs/common';
import { HoldSweeper } from './hold-sweeper';

/** Worker side of holds: the sweeper that deletes expired rows (tidiness, not correctness). */
@Module({ providers: [HoldSweeper] })
export class HoldsWorkerModule {}
