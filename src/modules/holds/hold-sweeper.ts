import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { RepeatingPass } from '../../common/queues/repeating-pass';
import { MINUTE } from '../../common/time/durations';
import { SweepExpiredHoldsCommand } from './slot-hold.commands';

const BATCH_SIZE = 1000;
const INTERVAL_MS = MINUTE;

/**
 * Deletes expired slot holds, a batch at a time (SweepExpiredHoldsCommand). Tidiness only: a
 * stopped sweeper costs a few rows, never a slot.
 */
@Injectable()
export class HoldSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly passes: RepeatingPass;

  constructor(
    private readonly commands: CommandBus,
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
    return this.commands.execute(new SweepExpiredHoldsCommand(now, BATCH_SIZE));
  }
}
