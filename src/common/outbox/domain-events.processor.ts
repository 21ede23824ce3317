import { Process, Processor } from '@nestjs/bull';
import { Inject, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Job } from 'bull';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { Batcher } from '../database/batcher';
import { ROOT_LOGGER } from '../logging/logging.module';
import { QueueName } from '../queues/queue-names';
import type { RecordedEvent } from './domain-event';
import { DOMAIN_EVENT_CONSUMER, type DomainEventHandler } from './domain-event-consumer';

/** Domain events handled at once per worker process (see `handle`). */
export const DOMAIN_EVENT_CONCURRENCY = 256;

/**
 * Worker: hands each domain event from the queue to every registered consumer, together, then records
 * in its outbox row that it was processed. Until then the relay considers the event in flight, and
 * hands it to the queue again when that lasts (OUTBOX_REDELIVER_AFTER_MS): its job was lost with
 * Redis, or failed for good. Consumers are idempotent, so a second run does no harm.
 *
 * The marks of jobs finishing together are written by one UPDATE (see Batcher); a job completes
 * only once its mark is committed, so a completed job always has its row marked.
 */
@Processor(QueueName.DomainEvents)
export class DomainEventsProcessor implements OnModuleInit {
  private consumers: DomainEventHandler[] = [];
  private readonly marks = new Batcher<string, void>((ids) => this.markProcessed(ids), {
    maxBatch: 500,
    maxInFlight: 2,
  });

  constructor(
    private readonly discovery: DiscoveryService,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.consumers = this.discovery
      .getProviders()
      .filter((w) => w.metatype && Reflect.getMetadata(DOMAIN_EVENT_CONSUMER, w.metatype) === true)
      .map((w) => w.instance as DomainEventHandler);
    this.logger.info(
      { consumers: this.consumers.map((c) => c.constructor.name) },
      'domain event consumers registered',
    );
  }

  /**
   * DOMAIN_EVENT_CONCURRENCY jobs at once. A job mostly waits: on its consumers' batched
   * statements and on its mark, a few fsyncs of MySQL. By Little's law a process handles
   * concurrency / job time events a second (two per booking: `scheduled` and `changed`), and the
   * more jobs wait together, the larger (and cheaper per event) the batches: at 64, the jobs' own
   * waits held deliveries near 1,000 a second (bench:webhooks).
   */
  @Process({ name: '*', concurrency: DOMAIN_EVENT_CONCURRENCY })
  async handle(job: Job<RecordedEvent>): Promise<void> {
    // Side by side: consumers are independent (webhooks do not wait for notifications' planning).
    // All of them run to the end; if any failed, the job is retried for all (each is idempotent).
    const outcomes = await Promise.allSettled(this.consumers.map((c) => c.handle(job.data)));
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
    await this.marks.add(job.data.outboxId);
  }

  private async markProcessed(ids: string[]): Promise<void[]> {
    await this.dataSource.query(
      'UPDATE outbox SET processed_at = ? WHERE id IN (?) AND processed_at IS NULL',
      [new Date(), ids],
    );
    return [];
  }
}
