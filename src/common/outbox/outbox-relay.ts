import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { ROOT_LOGGER } from '../logging/logging.module';
import { OutboxDispatcher } from './outbox-dispatcher';
import { OutboxRecord } from './outbox-record.entity';

const BATCH_SIZE = 200;

/**
 * Worker-side safety net of the outbox: rows still undispatched some seconds after they were written
 * (their writer crashed, or Redis was down) are enqueued here. Rows are claimed with
 * `FOR UPDATE SKIP LOCKED`, so several workers share the work without waiting on each other.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly dispatcher: OutboxDispatcher,
    private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One pass: enqueues up to a batch of due rows; returns how many. */
  async relayOnce(): Promise<number> {
    if (!this.dispatcher.queueReady) return 0;
    const cutoff = new Date(Date.now() - this.config.outbox.relayDelayMs);
    return this.dataSource.transaction(async (tx) => {
      const rows = await tx
        .createQueryBuilder(OutboxRecord, 'o')
        .where('o.dispatched_at IS NULL')
        .andWhere('o.created_at <= :cutoff', { cutoff })
        .orderBy('o.id', 'ASC')
        .limit(BATCH_SIZE)
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getMany();
      await this.dispatcher.dispatch(rows, tx);
      return rows.length;
    });
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.relayOnce()
        .then((count) => {
          if (count > 0) this.logger.info({ count }, 'outbox relay enqueued pending events');
          // A full batch means more may be waiting: go again at once.
          this.schedule(count === BATCH_SIZE ? 0 : this.config.outbox.relayIntervalMs);
        })
        .catch((err: unknown) => {
          this.logger.warn({ err }, 'outbox relay pass failed; retrying');
          this.schedule(this.config.outbox.relayIntervalMs);
        });
    }, delayMs);
  }
}
