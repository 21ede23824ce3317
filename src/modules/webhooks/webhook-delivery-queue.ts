import { BullModule, InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { QueueName } from '../../common/queues/queue-names';
import { withTimeout } from '../../common/time/with-timeout';
import { AppConfig } from '../../config/app-config';

export const DELIVER_JOB = 'deliver';

/** A delivery job names its message; everything else is read from the row when the job runs. */
export interface DeliveryJobData {
  messageId: string;
  /** How many times the message was put off for fairness before this job (see WebhookFairness). */
  deferrals?: number;
}

/** The deliveries queue's custom backoff (Bull `settings.backoffStrategies`). */
export const WEBHOOK_BACKOFF = 'webhook';

/** A job's wait after an unexpected error (MySQL down…): not an attempt, the ladder stays. */
export const UNEXPECTED_ERROR_RETRY_MS = 5000;

/** Jobs kept for inspection: the truth is in MySQL (webhook_messages, webhook_deliveries). */
const KEEP_COMPLETED = { count: 1000 };
const KEEP_FAILED = { age: 24 * 60 * 60, count: 10_000 };

/** Longest an add waits for Redis: a caller holding locks must not wait for a reconnection. */
const ADD_TIMEOUT_MS = 3000;

/** Thrown by a job whose attempt is retried: the backoff reads the ladder's wait from it. */
export class RetryLaterError extends Error {
  override readonly name = 'RetryLaterError';

  constructor(
    readonly delayMs: number,
    message: string,
  ) {
    super(message);
  }
}

/** Bull's wait before a job's next try: a RetryLaterError's delay, or UNEXPECTED_ERROR_RETRY_MS. */
export function webhookBackoff(_attemptsMade: number, err: Error | undefined): number {
  const delay = (err as { delayMs?: unknown } | undefined)?.delayMs;
  return typeof delay === 'number' && delay >= 0 ? delay : UNEXPECTED_ERROR_RETRY_MS;
}

/** The deliveries queue with its backoff strategy, for the modules that produce or consume it. */
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

/** Adds delivery jobs; Bull ignores an add whose jobId exists (a message handed twice: one job). */
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
