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
import { deletePastHoldMembers } from '../availability';
import { SlotHoldRepository } from './slot-hold.repository';

const BATCH_SIZE = 1000;
const INTERVAL_MS = MINUTE;

/**
 * Deletes expired slot holds in batches. Tidiness only: the busy check compares `expires_at` with
 * now, so a stopped sweeper costs rows, never a slot. Each of several workers' DELETEs takes its own.
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

  /**
   * Deletes up to a batch of expired holds; how many. Then up to a batch of collective holds'
   * member rows whose time has passed: a hold's members are busy only while it lives (a join), so
   * they wait for their time, whatever ended their hold, and go then.
   */
  sweepOnce(now = new Date()): Promise<number> {
    // A sweep over every account's rows, none of which any answer reads: no account to mark.
    return this.unitOfWork.run(null, async (tx) => {
      const deleted = await this.holds.deleteExpired(tx, now, BATCH_SIZE);
      await deletePastHoldMembers(tx, now, BATCH_SIZE);
      return deleted;
    });
  }
}
