import { createHash } from 'node:crypto';
import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import { ROOT_LOGGER } from '../logging/logging.module';
import { QueueName } from '../queues/queue-names';
import type { DomainEventBatch } from './domain-event';
import { type OutboxRecord, toRecordedEvent } from './outbox-record.entity';
import { type DispatchedJob, OutboxRepository } from './outbox.repository';
import { withTimeout } from '../time/with-timeout';

const ENQUEUE_TIMEOUT_MS = 3000;
const DAY_SECONDS = 24 * 60 * 60;
/** Most events one job carries: small, so that a failing event drags few others into retries. */
export const EVENTS_PER_JOB = 32;
export const EVENTS_JOB = 'events';

/**
 * The job id of a set of rows: the first row id and a digest of all. The same rows handed over
 * again (by the API and the relay) make the same id, which Bull ignores as a duplicate (completed
 * jobs are kept a day for that reason); other rows never share it.
 */
export function batchJobId(outboxIds: string[]): string {
  const digest = createHash('sha256').update(outboxIds.join(',')).digest('base64url');
  return `${outboxIds[0]}-${digest.slice(0, 16)}`;
}

/**
 * Moves outbox rows to the domain-events queue, EVENTS_PER_JOB events to a job: a Bull job costs
 * about the same however many events it carries. Each row records its job (`job_id`).
 */
@Injectable()
export class OutboxDispatcher {
  constructor(
    @InjectQueue(QueueName.DomainEvents) private readonly queue: Queue<DomainEventBatch>,
    private readonly rows: OutboxRepository,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  /** Whether Redis is connected (when not, adding would only wait). */
  get queueReady(): boolean {
    return this.queue.client.status === 'ready';
  }

  /** Enqueues the rows then marks them dispatched (with `tx` when given, else on its own). */
  async dispatch(rows: OutboxRecord[], tx?: EntityManager): Promise<DispatchedJob[]> {
    if (rows.length === 0) return [];
    const jobs = await this.enqueue(rows);
    await this.rows.markDispatched(jobs, tx);
    return jobs;
  }

  /** Adds the rows' jobs to the queue (a job already there is left as it is). */
  async enqueue(rows: OutboxRecord[]): Promise<DispatchedJob[]> {
    if (rows.length === 0) return [];
    if (!this.queueReady) throw new Error(`Redis is not ready (${this.queue.client.status})`);
    const jobs: (DispatchedJob & { data: DomainEventBatch })[] = [];
    for (let i = 0; i < rows.length; i += EVENTS_PER_JOB) {
      const events = rows.slice(i, i + EVENTS_PER_JOB).map(toRecordedEvent);
      const outboxIds = events.map((e) => e.outboxId);
      jobs.push({ jobId: batchJobId(outboxIds), outboxIds, data: { events } });
    }
    await withTimeout(
      this.queue.addBulk(
        jobs.map(({ jobId, data }) => ({
          name: EVENTS_JOB,
          data,
          opts: {
            jobId,
            attempts: 10,
            backoff: { type: 'exponential', delay: 1000 },
            removeOnComplete: { age: DAY_SECONDS },
            removeOnFail: { age: 7 * DAY_SECONDS },
          },
        })),
      ),
      ENQUEUE_TIMEOUT_MS,
      'Timed out adding jobs to Redis',
    );
    this.logger.debug({ jobs: jobs.map((j) => j.jobId) }, 'outbox events enqueued');
    return jobs.map(({ jobId, outboxIds }) => ({ jobId, outboxIds }));
  }
}
