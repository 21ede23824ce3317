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
import type { DomainEventBatch, RecordedEvent } from './domain-event';
import { DOMAIN_EVENT_CONSUMER, type DomainEventHandler } from './domain-event-consumer';

/** Jobs of domain events handled at once per worker process (see `handle`). */
export const DOMAIN_EVENT_CONCURRENCY = 64;

/**
 * Worker: hands each domain event from the queue to every registered consumer, together, then records
 * in its outbox row that it was processed. Until then the relay considers the event in flight, and
 * hands it to the queue again when that lasts (OUTBOX_REDELIVER_AFTER_MS): its job was lost with
 * Redis, or failed for good. Consumers are idempotent, so a second run does no harm.
 *
 * A job carries a batch of events (see OutboxDispatcher); they are handled side by side, and the
 * job completes once every one is processed and marked. When one fails, the job fails and Bull
 * tries it again later: the events already processed (marked) are left out of the next attempt.
 *
 * The marks of events finishing together are written by one UPDATE (see Batcher); an event counts
 * as done only once its mark is committed, so a completed job always has its rows marked.
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
   * DOMAIN_EVENT_CONCURRENCY jobs at once, each of up to EVENTS_PER_JOB events. An event mostly
   * waits: on its consumers' batched statements and on its mark, a few fsyncs of MySQL. By
   * Little's law a process handles events in flight / event time events a second (two per
   * booking: `scheduled` and `changed`), and the more events wait together, the larger (and
   * cheaper per event) the consumers' batches.
   */
  @Process({ name: '*', concurrency: DOMAIN_EVENT_CONCURRENCY })
  async handle(job: Job<DomainEventBatch | RecordedEvent>): Promise<void> {
    // Jobs of one event each were queued before events travelled in batches.
    const events = 'events' in job.data ? job.data.events : [job.data];
    const pending = job.attemptsMade > 0 ? await this.unprocessed(events) : events;
    await allThenFirstFailure(pending.map((event) => this.handleEvent(event)));
  }

  /**
   * Consumers side by side (webhooks do not wait for notifications' planning). All of them run to
   * the end; if any failed, the event is tried again with its job, for all (each is idempotent).
   */
  private async handleEvent(event: RecordedEvent): Promise<void> {
    await allThenFirstFailure(this.consumers.map((c) => c.handle(event)));
    await this.marks.add(event.outboxId);
  }

  /** The events of a job tried again whose rows are not marked processed yet. */
  private async unprocessed(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      'SELECT id FROM outbox WHERE id IN (?) AND processed_at IS NULL',
      [events.map((e) => e.outboxId)],
    );
    const open = new Set(rows.map((r) => String(r.id)));
    return events.filter((e) => open.has(e.outboxId));
  }

  private async markProcessed(ids: string[]): Promise<void[]> {
    await this.dataSource.query(
      'UPDATE outbox SET processed_at = ? WHERE id IN (?) AND processed_at IS NULL',
      [new Date(), ids],
    );
    return [];
  }
}

/** Waits for every task to end (none is cut short by another's failure), then throws the first. */
async function allThenFirstFailure(tasks: Promise<unknown>[]): Promise<void> {
  const outcomes = await Promise.allSettled(tasks);
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failed) throw failed.reason;
}
