import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { RepeatingPass } from '../../common/queues/repeating-pass';
import { MINUTE } from '../../common/time/durations';

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
    @InjectDataSource() private readonly dataSource: DataSource,
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
  async sweepOnce(now = new Date()): Promise<number> {
    const result = await this.dataSource.query<{ affectedRows: number }>(
      'DELETE FROM slot_holds WHERE expires_at <= ? ORDER BY expires_at LIMIT ?',
      [now, BATCH_SIZE],
    );
    return result.affectedRows;
  }
}
