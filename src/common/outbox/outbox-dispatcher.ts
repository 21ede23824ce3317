import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bull';
import type { Logger } from 'pino';
import { DataSource, type EntityManager, In, IsNull } from 'typeorm';
import { ROOT_LOGGER } from '../logging/logging.module';
import { QueueName } from '../queues/queue-names';
import type { RecordedEvent } from './domain-event';
import { OutboxRecord, toRecordedEvent } from './outbox-record.entity';

const ENQUEUE_TIMEOUT_MS = 3000;
const DAY_SECONDS = 24 * 60 * 60;

/**
 * Moves outbox rows to the domain-events queue. The row id is the Bull jobId, so a row enqueued twice
 * (by its writer after commit and by the relay, or by a relay retrying after Redis failed mid-way)
 * is one job: Bull ignores an add whose jobId exists. Completed jobs are kept a day for that reason.
 */
@Injectable()
export class OutboxDispatcher {
  constructor(
    @InjectQueue(QueueName.DomainEvents) private readonly queue: Queue<RecordedEvent>,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  /** Whether Redis is connected now (when it is not, adding would only wait). */
  get queueReady(): boolean {
    return this.queue.client.status === 'ready';
  }

  /** Enqueues the rows then marks them dispatched (with `tx` when given, else on its own). */
  async dispatch(rows: OutboxRecord[], tx?: EntityManager): Promise<void> {
    if (rows.length === 0) return;
    await this.enqueue(rows);
    await this.markDispatched(
      rows.map((r) => r.id),
      tx,
    );
  }

  /** Records that the rows reached the queue: the relay leaves them alone from then on. */
  async markDispatched(ids: string[], tx?: EntityManager): Promise<void> {
    if (ids.length === 0) return;
    await (tx ?? this.dataSource.manager).update(
      OutboxRecord,
      { id: In(ids), dispatchedAt: IsNull() },
      { dispatchedAt: new Date() },
    );
  }

  /** Adds the rows' jobs to the queue (a row already there is left as it is). */
  async enqueue(rows: OutboxRecord[]): Promise<void> {
    if (rows.length === 0) return;
    const events = rows.map(toRecordedEvent);
    if (!this.queueReady) throw new Error(`Redis is not ready (${this.queue.client.status})`);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error('Timed out adding jobs to Redis')),
        ENQUEUE_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([
        this.queue.addBulk(
          events.map((data) => ({
            name: data.type,
            data,
            opts: {
              jobId: data.outboxId,
              attempts: 10,
              backoff: { type: 'exponential', delay: 1000 },
              removeOnComplete: { age: DAY_SECONDS },
              removeOnFail: { age: 7 * DAY_SECONDS },
            },
          })),
        ),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
    this.logger.debug({ outboxIds: events.map((e) => e.outboxId) }, 'outbox events enqueued');
  }
}
