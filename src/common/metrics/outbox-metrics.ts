import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { OutboxRepository } from '../outbox/outbox.repository';
import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import { ROOT_LOGGER } from '../logging/logging.module';
import { Metrics } from './metrics';
import { ScrapeCache } from './scrape-cache';

/** The outbox lag is read at most this often. */
export const OUTBOX_LAG_CACHE_MS = 5000;
const READ_TIMEOUT_MS = 2000;

/**
 * Why the relay handed a dispatched event's job to the queue again, as
 * `outbox_jobs_requeued_total{reason}` counts it: Redis had no job, or only part of one (`lost`),
 * had its data but in none of the queue's lists (`stuck`), or the job had failed for good
 * (`failed`, retried). See OutboxRelay.
 */
export type OutboxRequeueReason = 'lost' | 'stuck' | 'failed';
const REQUEUE_REASONS: readonly OutboxRequeueReason[] = ['lost', 'stuck', 'failed'];

interface Oldest {
  undispatched: Date | null;
  unprocessed: Date | null;
}

/**
 * Worker: `outbox_lag_seconds{stage}`, the age of the oldest outbox row not yet handed to the queue
 * (`undispatched`: the API hands rows over right after commit, the relay after
 * OUTBOX_RELAY_DELAY_MS, so a few seconds means Redis or the relay is in trouble) and of the oldest
 * not yet handled by its consumers (`unprocessed`: the end-to-end lag of events, webhooks and
 * notifications included); 0 when there is none. One query of two index lookups
 * (idx_outbox_pending, idx_outbox_unprocessed: the first row in id order of each), on scrape,
 * cached OUTBOX_LAG_CACHE_MS.
 *
 * And `outbox_jobs_requeued_total{reason}`, the relay's re-queues by reason, counted live; each
 * reason starts at 0, so that a rate and an alert (`increase(...[1h]) > 0`: part of Redis was lost)
 * work before the first.
 */
@Injectable()
export class OutboxMetrics implements OnModuleInit {
  private readonly requeued: Counter<'reason'>;

  private readonly oldest = new ScrapeCache(
    () => this.read(),
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

  /** Counts jobs the relay handed to the queue again. */
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
        let oldest: Oldest;
        try {
          oldest = await this.oldest.get();
        } catch (err) {
          this.logger.warn({ err }, 'outbox lag not read');
          return;
        }
        const now = Date.now();
        for (const stage of ['undispatched', 'unprocessed'] as const) {
          const at = oldest[stage];
          gauge.set({ stage }, at ? Math.max(0, now - at.getTime()) / 1000 : 0);
        }
      },
    );
  }

  private read(): Promise<Oldest> {
    return this.rows.oldest();
  }
}
