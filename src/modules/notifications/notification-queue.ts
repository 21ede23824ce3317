import { BullModule, InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { withTimeout } from '../../common/time/with-timeout';
import { QueueName } from '../../common/queues/queue-names';
import { AppConfig } from '../../config/app-config';

/** The name of every job of the notifications queue. */
export const SEND_JOB = 'send';

/** A job names its message; everything else is read when it runs. */
export interface SendJobData {
  notificationId: string;
}

/** Jobs kept for inspection: the truth is in MySQL (notifications). */
const KEEP_COMPLETED = { count: 1000 };
const KEEP_FAILED = { age: 7 * 24 * 60 * 60, count: 10_000 };

/** Longest an add waits for Redis. */
const ADD_TIMEOUT_MS = 3000;
const REDIS_TIMEOUT = 'Timed out waiting for Redis';

/**
 * Bull tries a job a little more often than a message has attempts: a try that ends before sending
 * (MySQL unreachable, the message busy with a dead worker's lease) spends a try, not an attempt.
 */
const SPARE_TRIES = 2;

export const notificationsQueueModule = BullModule.registerQueue({ name: QueueName.Notifications });

/**
 * Adds and removes the jobs of messages. A message's job id is `n:<notificationId>`, so adding it
 * again (an event handed over twice, reminders planned again on the next change) queues it once;
 * a reminder's job is delayed until the reminder's time.
 */
@Injectable()
export class NotificationQueue {
  constructor(
    @InjectQueue(QueueName.Notifications) private readonly queue: Queue<SendJobData>,
    private readonly config: AppConfig,
  ) {}

  static jobId(notificationId: string): string {
    return `n:${notificationId}`;
  }

  /** Queues the messages, each due at `dueAt` (at once when absent or past). */
  async add(messages: { id: string; dueAt?: Date }[], now = Date.now()): Promise<void> {
    if (messages.length === 0) return;
    const { retryAttempts, retryDelayMs } = this.config.notifications;
    await withTimeout(
      this.queue.addBulk(
        messages.map(({ id, dueAt }) => ({
          name: SEND_JOB,
          data: { notificationId: id },
          opts: {
            jobId: NotificationQueue.jobId(id),
            // Bull runs a delayed job at timestamp + delay: exactly at dueAt.
            timestamp: now,
            delay: dueAt ? Math.max(0, dueAt.getTime() - now) : 0,
            attempts: retryAttempts + SPARE_TRIES,
            backoff: { type: 'exponential', delay: retryDelayMs },
            removeOnComplete: KEEP_COMPLETED,
            removeOnFail: KEEP_FAILED,
          },
        })),
      ),
      ADD_TIMEOUT_MS,
      REDIS_TIMEOUT,
    );
  }

  /**
   * Removes the jobs of messages that lost their purpose (a moved or canceled appointment's
   * reminder). Best effort: a job running now cannot be removed, and finds its row gone.
   */
  async remove(ids: string[]): Promise<void> {
    for (const id of ids) {
      const job = await withTimeout(
        this.queue.getJob(NotificationQueue.jobId(id)),
        ADD_TIMEOUT_MS,
        REDIS_TIMEOUT,
      );
      if (!job) continue;
      try {
        await job.remove();
      } catch {
        // Locked by the worker running it: it will find nothing to send.
      }
    }
  }
}
