import { BullModule, InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { withTimeout } from '../../common/time/with-timeout';
import { QueueName } from '../../common/queues/queue-names';
import { AppConfig } from '../../config/app-config';

export const SEND_JOB = 'send';

/** A job names its message; everything else is read when it runs. */
export interface SendJobData {
  notificationId: string;
}

/** Jobs kept for inspection: the truth is in MySQL (notifications). */
const KEEP_COMPLETED = { count: 1000 };
const KEEP_FAILED = { age: 7 * 24 * 60 * 60, count: 10_000 };

/** A Redis call, given up after 3 s. */
const inTime = <T>(call: Promise<T>) => withTimeout(call, 3000, 'Timed out waiting for Redis');

/** Tries past a message's attempts: a try that ends before sending spends no attempt. */
const SPARE_TRIES = 2;

export const notificationsQueueModule = BullModule.registerQueue({ name: QueueName.Notifications });

/** The jobs of messages: a job id per message (`n:<id>`), so that adding it again queues it once. */
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
    await inTime(
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
    );
  }

  /** Removes stale reminders' jobs; best effort: a job running now finds its row gone. */
  async remove(ids: string[]): Promise<void> {
    for (const id of ids) {
      const job = await inTime(this.queue.getJob(NotificationQueue.jobId(id)));
      if (!job) continue;
      try {
        await job.remove();
      } catch {
        // Locked by the worker running it: it will find nothing to send.
      }
    }
  }
}
