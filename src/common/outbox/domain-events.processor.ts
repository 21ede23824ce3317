import { Process, Processor } from '@nestjs/bull';
import { Inject } from '@nestjs/common';
import type { Job } from 'bull';
import type { Logger } from 'pino';
import { Batcher } from '../database/batcher';
import { ROOT_LOGGER } from '../logging/logging.module';
import { QueueName } from '../queues/queue-names';
import type { DomainEventBatch, RecordedEvent } from './domain-event';
import {
  DOMAIN_EVENT_CONSUMERS,
  type DomainEventConsumer,
  type DomainEventConsumers,
  consumersByType,
} from './domain-event-consumer';
import type { DomainEventType } from './domain-event-types';
import { EVENTS_JOB } from './outbox-dispatcher';
import { OutboxRepository } from './outbox.repository';

/** Jobs of domain events handled at once per worker process (see `handle`). */
export const DOMAIN_EVENT_CONCURRENCY = 64;

/**
 * Worker: hands each domain event from the queue to the consumers of its type, together, then
 * records in its outbox row that it was processed. Which consumers a type has is the map the
 * worker module gives (DOMAIN_EVENT_CONSUMERS, from src/app/domain-event-consumers.ts); a type
 * without one stops the worker's start. Until an event is marked, the relay considers it in
 * flight, and hands it to the queue again when that lasts (OUTBOX_REDELIVER_AFTER_MS): its job was
 * lost with Redis, or failed for good. Consumers are idempotent, so a second run does no harm.
 *
 * A job carries a batch of events (see OutboxDispatcher); they are handled side by side, and the
 * job completes once every one is processed and marked. When one fails, the job fails and Bull
 * tries it again later: the events already processed (marked) are left out of the next attempt.
 *
 * The marks of events finishing together are written by one UPDATE (see Batcher); an event counts
 * as done only once its mark is committed, so a completed job always has its rows marked.
 */
@Processor(QueueName.DomainEvents)
export class DomainEventsProcessor {
  private readonly consumers: ReadonlyMap<DomainEventType, readonly DomainEventConsumer[]>;
  private readonly marks = new Batcher<string, void>((ids) => this.markProcessed(ids), {
    maxBatch: 500,
    maxInFlight: 2,
  });

  constructor(
    @Inject(DOMAIN_EVENT_CONSUMERS) consumers: DomainEventConsumers,
    private readonly rows: OutboxRepository,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    this.consumers = consumersByType(consumers);
    this.logger.info(
      {
        consumers: Object.fromEntries(
          [...this.consumers].map(([type, list]) => [type, list.map((c) => c.constructor.name)]),
        ),
      },
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
  @Process({ name: EVENTS_JOB, concurrency: DOMAIN_EVENT_CONCURRENCY })
  async handle(job: Job<DomainEventBatch>): Promise<void> {
    const { events } = job.data;
    const pending = job.attemptsMade > 0 ? await this.unprocessed(events) : events;
    await allThenFirstFailure(pending.map((event) => this.handleEvent(event)));
  }

  /**
   * The consumers of the event's type side by side (webhooks do not wait for notifications'
   * planning). All of them run to the end; if any failed, the event is tried again with its job,
   * for all (each is idempotent). A type this worker does not know (recorded by another version of
   * the service) reaches no consumer: the event is marked processed, as one no consumer wanted.
   */
  private async handleEvent(event: RecordedEvent): Promise<void> {
    const consumers = this.consumers.get(event.type);
    if (consumers) await allThenFirstFailure(consumers.map((c) => c.handle(event)));
    else this.logger.warn({ outboxId: event.outboxId, type: event.type }, 'no consumer for event');
    await this.marks.add(event.outboxId);
  }

  /** The events of a job tried again whose rows are not marked processed yet. */
  private async unprocessed(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    const open = await this.rows.unprocessed(events.map((e) => e.outboxId));
    return events.filter((e) => open.has(e.outboxId));
  }

  private async markProcessed(ids: string[]): Promise<void[]> {
    await this.rows.markProcessed(ids);
    return [];
  }
}

/** Waits for every task to end (none is cut short by another's failure), then throws the first. */
async function allThenFirstFailure(tasks: Promise<unknown>[]): Promise<void> {
  const outcomes = await Promise.allSettled(tasks);
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failed) throw failed.reason;
}
