import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { LockConflict } from '../database/mysql-errors';
import { HttpDurations } from './http-durations';

/** Whose limit of deliveries in flight put a webhook delivery off (see WebhookFairness). */
export type WebhookDeferralReason = 'target' | 'slow-target' | 'account';

/** Seconds; HTTP answers of this service take milliseconds to a few seconds (webhook timeouts: 10 s). */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Jobs range from a millisecond (a claim that finds nothing) to a receiver's 10 s timeout and more. */
const JOB_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Label of requests that matched no route (their raw URL would make a series per URL). */
export const UNMATCHED_ROUTE = '(unmatched)';

/**
 * The process's Prometheus metrics, in a registry per application (tests run several in one
 * process), Node's own included. Those read on scrape are gauges a worker-side provider's
 * `collect` sets (QueueMetrics, OutboxMetrics).
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  /** Per route pattern (never the raw URL), method and status: see registerHttpMetrics. */
  readonly httpDuration = new HttpDurations(
    'http_request_duration_seconds',
    'Time from the request to the end of its response, by route pattern, method and status.',
    LATENCY_BUCKETS,
    this.registry,
  );

  readonly bookings = this.counter(
    'bookings_total',
    'Bookings by outcome: booked, or conflict (the time is taken: not_available, no_available_calendar).',
    ['outcome'],
  );

  readonly webhookDeliveries = this.counter(
    'webhook_deliveries_total',
    'Webhook delivery attempts by outcome (delivered, retrying, failed, stopped, disabled), and messages skipped because their subscription was disabled.',
    ['outcome'],
  );

  readonly webhookDeferrals = this.counter(
    'webhook_deferrals_total',
    "Webhook deliveries put off for a moment, not attempted (their retry ladder unchanged), because a limit of deliveries in flight was full: their receiver's (target), their slow receiver's (slow-target) or their account's (account).",
    ['reason'],
  );

  readonly jobDuration = new Histogram({
    name: 'queue_job_duration_seconds',
    help: 'Time a job took in this worker, from the start of its run to its end, by queue and status.',
    labelNames: ['queue', 'status'] as const,
    buckets: JOB_BUCKETS,
    registers: [this.registry],
  });

  readonly calendarSyncs = this.counter(
    'calendar_syncs_total',
    'Syncs of busy sources (the staff calendars read for busy time) by outcome: read (spans replaced), unchanged (ETag or ctag the same), failed (the last good spans kept).',
    ['type', 'outcome'],
  );

  readonly calendarSyncDuration = new Histogram({
    name: 'calendar_sync_duration_seconds',
    help: 'Time one sync of a busy source took, from the request to its spans written, by source type.',
    labelNames: ['type'] as const,
    buckets: JOB_BUCKETS,
    registers: [this.registry],
  });

  readonly calendarEventsRead = this.counter(
    'calendar_sync_events_read_total',
    'Busy occurrences read from busy sources (free and cancelled ones left out), by source type.',
    ['type'],
  );

  readonly transactionRetries = this.counter(
    'db_transaction_retries_total',
    "Transactions run again whole because the database gave up on them: a deadlock victim, or on a Galera cluster a write set that failed certification against another node's (deadlock), or a lock wait that timed out (lock_wait_timeout).",
    ['reason'],
  );

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  private counter<T extends string>(name: string, help: string, labelNames: readonly T[]) {
    return new Counter<T>({ name, help, labelNames, registers: [this.registry] });
  }

  /** A gauge read on scrape: `collect` sets its values (see prom-client's collect). */
  gauge<T extends string>(
    name: string,
    help: string,
    labelNames: readonly T[],
    collect: (gauge: Gauge<T>) => Promise<void>,
  ): Gauge<T> {
    return new Gauge<T>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        await collect(this);
      },
    });
  }

  /** Booked, or the time taken (other refusals show by HTTP status). */
  countBooking(outcome: 'booked' | 'conflict'): void {
    this.bookings.inc({ outcome });
  }

  countTransactionRetry(reason: LockConflict): void {
    this.transactionRetries.inc({ reason });
  }

  countWebhookDelivery(
    outcome: 'delivered' | 'retrying' | 'failed' | 'stopped' | 'disabled' | 'skipped',
  ): void {
    this.webhookDeliveries.inc({ outcome });
  }

  countWebhookDeferral(reason: WebhookDeferralReason): void {
    this.webhookDeferrals.inc({ reason });
  }

  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
