import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '../logging/logging.module';
import { OutboxDispatcher } from './outbox-dispatcher';
import { type DispatchedJob, OutboxRepository, type PendingEvents } from './outbox.repository';
import type { OutboxRecord } from './outbox-record.entity';

/** How long enqueued rows wait to be marked dispatched together, and how many at most. */
const MARK_INTERVAL_MS = 250;
const MARK_BATCH = 500;
const ENQUEUE_BATCH = 500;
/**
 * How long committed rows wait for others (a "linger", as Kafka producers have): one job for the
 * events of several bookings under load; without it the queue work was ~13% of a booking's CPU.
 */
export const ENQUEUE_LINGER_MS = 5;

/**
 * After a commit: hands the outbox rows to the queue without making the caller wait (if that
 * fails, the relay does it seconds later), and marks them dispatched in batches: a row whose mark
 * is lost is enqueued again by the relay, as the same job (ignored) or handled twice (allowed).
 */
@Injectable()
export class DomainEventPublisher implements OnApplicationShutdown {
  private toEnqueue: OutboxRecord[] = [];
  private lingering: NodeJS.Timeout | undefined;
  private enqueuing: Promise<void> | undefined;
  private toMark: DispatchedJob[] = [];
  private marksWaiting = 0;
  private markTimer: NodeJS.Timeout | undefined;
  private marking: Promise<void> = Promise.resolve();

  constructor(
    private readonly dispatcher: OutboxDispatcher,
    private readonly rows: OutboxRepository,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  publishAfterCommit({ records }: PendingEvents): void {
    if (records.length === 0) return;
    if (!this.dispatcher.queueReady) return; // the relay will do it
    this.toEnqueue.push(...records);
    if (this.toEnqueue.length >= ENQUEUE_BATCH) this.startDraining();
    else this.linger();
  }

  /** Drains after ENQUEUE_LINGER_MS, unless a drain is already due. */
  private linger(): void {
    this.lingering ??= setTimeout(() => this.startDraining(), ENQUEUE_LINGER_MS);
  }

  private startDraining(): void {
    clearTimeout(this.lingering);
    this.lingering = undefined;
    if (this.enqueuing) return;
    this.enqueuing = this.drain().finally(() => {
      this.enqueuing = undefined;
      // Rows added between the loop's last look and now wait their linger.
      if (this.toEnqueue.length > 0) this.linger();
    });
  }

  /** Enqueues what is waiting, one addBulk at a time: rows committed meanwhile go together. */
  private async drain(): Promise<void> {
    while (this.toEnqueue.length > 0) {
      const batch = this.toEnqueue.splice(0, ENQUEUE_BATCH);
      try {
        this.markLater(await this.dispatcher.enqueue(batch));
      } catch (err: unknown) {
        this.logger.warn(
          { err, outboxIds: batch.map((r) => r.id) },
          'outbox dispatch deferred to the relay',
        );
      }
    }
  }

  /** Lets dispatches already started finish, and marks them, before the pools close. */
  async onApplicationShutdown(): Promise<void> {
    for (;;) {
      // What lingers goes now.
      if (this.toEnqueue.length > 0) this.startDraining();
      clearTimeout(this.lingering);
      this.lingering = undefined;
      if (!this.enqueuing) break;
      await this.enqueuing;
    }
    await this.flushMarks();
  }

  private markLater(jobs: DispatchedJob[]): void {
    this.toMark.push(...jobs);
    this.marksWaiting += jobs.reduce((sum, j) => sum + j.outboxIds.length, 0);
    if (this.marksWaiting >= MARK_BATCH) void this.flushMarks();
    else this.markTimer ??= setTimeout(() => void this.flushMarks(), MARK_INTERVAL_MS);
  }

  /** One UPDATE for every row enqueued since the last; failures leave them to the relay. */
  private flushMarks(): Promise<void> {
    clearTimeout(this.markTimer);
    this.markTimer = undefined;
    const jobs = this.toMark;
    const count = this.marksWaiting;
    this.toMark = [];
    this.marksWaiting = 0;
    if (jobs.length === 0) return this.marking;
    this.marking = this.marking
      .then(() => this.rows.markDispatched(jobs))
      .catch((err: unknown) =>
        this.logger.warn({ err, count }, 'outbox rows left for the relay to mark'),
      );
    return this.marking;
  }
}
