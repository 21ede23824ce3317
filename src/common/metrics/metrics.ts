import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { HttpDurations } from './http-durations';

/**
 * How a booking ended, as `bookings_total{outcome}` counts it: booked, or refused because the time
 * is taken (`not_available`, `no_available_calendar` under the calendars' locks). Other refusals
 * (validation, advance limits) show in the HTTP metrics by status.
 */
export type BookingOutcome = 'booked' | 'conflict';

/** How a webhook delivery attempt ended, as `webhook_deliveries_total{outcome}` counts it. */
export type WebhookDeliveryOutcome =
  'delivered' | 'retrying' | 'failed' | 'stopped' | 'disabled' | 'skipped';

/**
 * Why a webhook delivery was put off instead of attempted, as `webhook_deferrals_total`
 * counts it: a limit of deliveries in flight was full, its receiver's, its slow receiver's, or its
 * account's (see WebhookFairness).
 */
export type WebhookDeferralReason = 'target' | 'slow-target' | 'account';

/** How one sync of a calendar's busy source ended, as `calendar_syncs_total{outcome}` counts it. */
export type CalendarSyncOutcome = 'read' | 'unchanged' | 'failed';

/** Seconds; HTTP answers of this service take milliseconds to a few seconds (webhook timeouts: 10 s). */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Jobs range from a millisecond (a claim that finds nothing) to a receiver's 10 s timeout and more. */
const JOB_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Label of requests that matched no route (their raw URL would make a series per URL). */
export const UNMATCHED_ROUTE = '(unmatched)';

/**
 * The process's Prometheus metrics, in a registry of its own (one per application, so that tests
 * may run several in one process). The instruments every process may update live here; the ones
 * read on scrape (queue depth, outbox lag) are gauges whose `collect` a worker-side provider sets
 * (see QueueMetrics, OutboxMetrics). Node's own (CPU, memory, event loop, GC) are collected too.
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

  readonly bookings = new Counter({
    name: 'bookings_total',
    help: 'Bookings by outcome: booked, or conflict (the time is taken: not_available, no_available_calendar).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (delivered, retrying, failed, stopped, disabled), and messages skipped because their subscription was disabled.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly webhookDeferrals = new Counter({
    name: 'webhook_deferrals_total',
    help: "Webhook deliveries put off for a moment, not attempted (their retry ladder unchanged), because a limit of deliveries in flight was full: their receiver's (target), their slow receiver's (slow-target) or their account's (account).",
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly jobDuration = new Histogram({
    name: 'queue_job_duration_seconds',
    help: 'Time a job took in this worker, from the start of its run to its end, by queue and status.',
    labelNames: ['queue', 'status'] as const,
    buckets: JOB_BUCKETS,
    registers: [this.registry],
  });

  readonly calendarSyncs = new Counter({
    name: 'calendar_syncs_total',
    help: 'Syncs of busy sources (the staff calendars read for busy time) by outcome: read (spans replaced), unchanged (ETag or ctag the same), failed (the last good spans kept).',
    labelNames: ['type', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly calendarSyncDuration = new Histogram({
    name: 'calendar_sync_duration_seconds',
    help: 'Time one sync of a busy source took, from the request to its spans written, by source type.',
    labelNames: ['type'] as const,
    buckets: JOB_BUCKETS,
    registers: [this.registry],
  });

  readonly calendarEventsRead = new Counter({
    name: 'calendar_sync_events_read_total',
    help: 'Busy occurrences read from busy sources (free and cancelled ones left out), by source type.',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
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

  countBooking(outcome: BookingOutcome): void {
    this.bookings.inc({ outcome });
  }

  countWebhookDelivery(outcome: WebhookDeliveryOutcome): void {
    this.webhookDeliveries.inc({ outcome });
  }

  countWebhookDeferral(reason: WebhookDeferralReason): void {
    this.webhookDeferrals.inc({ reason });
  }

  /** The text format Prometheus scrapes, and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
