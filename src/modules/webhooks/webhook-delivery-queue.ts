import { BullModule, InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { QueueName } from '../../common/queues/queue-names';
import { withTimeout } from '../../common/time/with-timeout';
import { AppConfig } from '../../config/app-config';

/** The name of every job of the deliveries queue. */
export const DELIVER_JOB = 'deliver';

/** A delivery job names its message; everything else is read from the row when the job runs. */
export interface DeliveryJobData {
  messageId: string;
  /** How many times the message was put off for fairness before this job (see WebhookFairness). */
  deferrals?: number;
}

/** The deliveries queue's custom backoff (Bull `settings.backoffStrategies`). */
export const WEBHOOK_BACKOFF = 'webhook';

/**
 * How long a job waits after an unexpected error (MySQL unreachable…), which is not an attempt
 * of the message: its ladder is unchanged, only the job tries again.
 */
export const UNEXPECTED_ERROR_RETRY_MS = 5000;

/** Jobs kept for inspection: the truth is in MySQL (webhook_messages, webhook_deliveries). */
const KEEP_COMPLETED = { count: 1000 };
const KEEP_FAILED = { age: 24 * 60 * 60, count: 10_000 };

/** Longest an add waits for Redis (a caller holding rows locked must not wait for a reconnection). */
const ADD_TIMEOUT_MS = 3000;

/**
 * Thrown by a delivery job whose attempt failed in a way that is retried: the backoff strategy
 * reads the wait from it (the ladder's rung of the message's attempt count, from its row).
 */
export class RetryLaterError extends Error {
  override readonly name = 'RetryLaterError';

  constructor(
    readonly delayMs: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Bull's wait before a job's next try: the delay carried by a RetryLaterError, or a short fixed
 * one after an unexpected error. A job that must not be tried again is discarded before it throws,
 * so Bull never asks.
 */
export function webhookBackoff(_attemptsMade: number, err: Error | undefined): number {
  const delay = (err as { delayMs?: unknown } | undefined)?.delayMs;
  return typeof delay === 'number' && delay >= 0 ? delay : UNEXPECTED_ERROR_RETRY_MS;
}

/** The deliveries queue, with its backoff strategy: import it where the queue is produced or consumed. */
export const webhookDeliveriesQueueModule = BullModule.registerQueue({
  name: QueueName.WebhookDeliveries,
  settings: { backoffStrategies: { [WEBHOOK_BACKOFF]: webhookBackoff } },
});

/** One job to add: the message and the job id that makes adding it idempotent. */
export interface DeliveryJob {
  messageId: string;
  jobId: string;
  /** How long the job waits in `delayed` before it may run. */
  delayMs?: number;
  deferrals?: number;
}

/**
 * Adds delivery jobs. Bull ignores an add whose jobId exists, so handing a message over twice
 * (fan-out run again, sweeper) queues it once; and a second job that does run anyway finds the
 * message claimed or not due and completes without sending (see WebhookAttempts.claim).
 */
@Injectable()
export class WebhookDeliveryQueue {
  /** Bull's own tries of a job: the ladder's retries and the first attempt. */
  private readonly attempts: number;

  constructor(
    @InjectQueue(QueueName.WebhookDeliveries) private readonly queue: Queue<DeliveryJobData>,
    config: AppConfig,
  ) {
    this.attempts = config.webhooks.retryDelaysMs.length + 1;
  }

  /** Whether Redis is connected now (when it is not, adding would only wait). */
  get ready(): boolean {
    return this.queue.client.status === 'ready';
  }

  /** The job id of a message's first job (the fan-out's). */
  static firstJobId(messageId: string): string {
    return `wh:${messageId}`;
  }

  async add(jobs: DeliveryJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await withTimeout(
      this.queue.addBulk(
        jobs.map(({ messageId, jobId, delayMs, deferrals }) => ({
          name: DELIVER_JOB,
          data: deferrals === undefined ? { messageId } : { messageId, deferrals },
          opts: {
            jobId,
            ...(delayMs === undefined ? {} : { delay: delayMs }),
            attempts: this.attempts,
            backoff: { type: WEBHOOK_BACKOFF },
            removeOnComplete: KEEP_COMPLETED,
            removeOnFail: KEEP_FAILED,
          },
        })),
      ),
      ADD_TIMEOUT_MS,
      'Timed out adding jobs to Redis',
    );
  }
}
