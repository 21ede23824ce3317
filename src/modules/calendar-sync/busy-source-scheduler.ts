import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  type OnModuleInit,
  Optional,
} from '@nestjs/common';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { Metrics } from '../../common/metrics/metrics';
import { ScrapeCache } from '../../common/metrics/scrape-cache';
import { RepeatingPass } from '../../common/queues/repeating-pass';
import { AppConfig } from '../../config/app-config';
import { BusySourceRepository } from './busy-source.repository';
import { BusySourceSync, SYNC_BATCH } from './busy-source-sync';

const STATES = ['pending', 'ok', 'error'] as const;

/**
 * Worker: every CALENDAR_SYNC_SCAN_INTERVAL_MS, the sources due are claimed and read. The schedule
 * is `next_sync_at` in MySQL, not Bull's repeatable jobs: a source or an interval changed needs no
 * job kept in step, and workers share the sources by the conditional claim. Also the metric
 * `calendar_busy_sources{state}`.
 */
@Injectable()
export class BusySourceScheduler implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly passes: RepeatingPass;
  private readonly counts = new ScrapeCache(() => this.sources.countByState(), 5000, 2000);

  constructor(
    private readonly sync: BusySourceSync,
    private readonly config: AppConfig,
    private readonly sources: BusySourceRepository,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    @Optional() private readonly metrics?: Metrics,
  ) {
    this.passes = new RepeatingPass(() => this.sync.syncDue(), {
      batchSize: SYNC_BATCH,
      intervalMs: config.calendarSync.scanIntervalMs,
      logger,
      tookRows: 'calendar sync read due busy sources',
      failed: 'calendar sync pass failed; retrying',
    });
  }

  onModuleInit(): void {
    this.metrics?.gauge(
      'calendar_busy_sources',
      'Busy sources (staff calendars read for busy time) by the state of their last sync: pending, ok, error.',
      ['state'],
      async (gauge) => {
        gauge.reset();
        try {
          const counts = await this.counts.get();
          for (const state of STATES) gauge.set({ state }, counts.get(state) ?? 0);
        } catch (err) {
          this.logger.warn({ err }, 'busy sources not counted');
        }
      },
    );
  }

  onApplicationBootstrap(): void {
    this.passes.start(Math.min(1000, this.config.calendarSync.scanIntervalMs));
  }

  async onModuleDestroy(): Promise<void> {
    this.sync.stop();
    await this.passes.stop();
    await this.sync.settled();
  }
}
