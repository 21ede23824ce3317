import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import type { Logger } from 'pino';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { RepeatingPass } from '../../common/queues/repeating-pass';
import { MINUTE } from '../../common/time/durations';
import { SlotHoldRepository } from './slot-hold.repository';

const BATCH_SIZE = 1000;
const INTERVAL_MS = MINUTE;

/**
 * Deletes expired slot holds, a batch at a time. Tidiness only: an expired hold is busy for nobody
 * whether or not it was swept (the busy check compares `expires_at` with now), so a stopped sweeper
 * costs a few rows, never a slot. Several workers may sweep at once: each DELETE takes what it finds.
 */
@Injectable()
export class HoldSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly passes: RepeatingPass;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly holds: SlotHoldRepository,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.passes = new RepeatingPass(() => this.sweepOnce(), {
      batchSize: BATCH_SIZE,
      intervalMs: INTERVAL_MS,
      logger,
      tookRows: 'hold sweeper deleted expired holds',
      failed: 'hold sweep failed; retrying',
    });
  }

  onApplicationBootstrap(): void {
    this.passes.start(INTERVAL_MS);
  }

  async onModuleDestroy(): Promise<void> {
    await this.passes.stop();
  }

  /** One pass: deletes up to a batch of expired holds; returns how many. */
  sweepOnce(now = new Date()): Promise<number> {
    // A sweep over every account's rows, none of which any answer reads: no account to mark.
    return this.unitOfWork.run(null, (tx) => this.holds.deleteExpired(tx, now, BATCH_SIZE));
  }
}
