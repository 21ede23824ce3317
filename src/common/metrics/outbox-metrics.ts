import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { OutboxRepository } from '../outbox/outbox.repository';
import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import { ROOT_LOGGER } from '../logging/logging.module';
import { Metrics } from './metrics';
import { ScrapeCache } from './scrape-cache';

export const OUTBOX_LAG_CACHE_MS = 5000;
const READ_TIMEOUT_MS = 2000;

/** Why the relay handed a dispatched event's job to the queue again (see OutboxRelay). */
export type OutboxRequeueReason = 'lost' | 'stuck' | 'failed';
const REQUEUE_REASONS: readonly OutboxRequeueReason[] = ['lost', 'stuck', 'failed'];

/**
 * Worker: `outbox_lag_seconds{stage}`, the age of the oldest outbox row `undispatched` (a few
 * seconds: Redis or the relay is in trouble) and `unprocessed` (the end-to-end lag of events); one
 * query of two index lookups on scrape, cached OUTBOX_LAG_CACHE_MS. And
 * `outbox_jobs_requeued_total{reason}`, each reason from 0 so that an alert works before the first.
 */
@Injectable()
export class OutboxMetrics implements OnModuleInit {
  private readonly requeued: Counter<'reason'>;

  private readonly oldest = new ScrapeCache(
    () => this.rows.oldest(),
    OUTBOX_LAG_CACHE_MS,
    READ_TIMEOUT_MS,
  );

  constructor(
    private readonly rows: OutboxRepository,
    private readonly metrics: Metrics,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    this.requeued = new Counter({
      name: 'outbox_jobs_requeued_total',
      help: 'Jobs of dispatched, unprocessed outbox events that the relay handed to the queue again, by reason: lost (Redis had none, or only part of one), stuck (its data in none of the queue lists), failed (failed for good, retried).',
      labelNames: ['reason'] as const,
      registers: [metrics.registry],
    });
    for (const reason of REQUEUE_REASONS) this.requeued.inc({ reason }, 0);
  }

  countRequeued(reason: OutboxRequeueReason, jobs: number): void {
    if (jobs > 0) this.requeued.inc({ reason }, jobs);
  }

  onModuleInit(): void {
    this.metrics.gauge(
      'outbox_lag_seconds',
      'Age of the oldest outbox row not yet dispatched to the queue (stage="undispatched") or not yet processed by the worker (stage="unprocessed"); 0 when none.',
      ['stage'],
      async (gauge) => {
        gauge.reset();
        const oldest = await this.oldest.get().catch((err: unknown) => {
          this.logger.warn({ err }, 'outbox lag not read');
        });
        if (!oldest) return;
        const now = Date.now();
        for (const stage of ['undispatched', 'unprocessed'] as const) {
          const at = oldest[stage];
          gauge.set({ stage }, at ? Math.max(0, now - at.getTime()) / 1000 : 0);
        }
      },
    );
  }
}
