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
 * Worker: hands each domain event to the consumers of its type (DOMAIN_EVENT_CONSUMERS), then marks
 * its outbox row processed; until then the relay may hand it to the queue again (consumers are
 * idempotent). A job's events are handled side by side; when one fails the job fails, and its next
 * attempt leaves out the events already marked. Marks finishing together are one UPDATE (Batcher);
 * an event is done only once its mark is committed, so a completed job has all its rows marked.
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
   * DOMAIN_EVENT_CONCURRENCY jobs at once: an event mostly waits (on batched statements, on MySQL's
   * fsyncs), so by Little's law throughput is events in flight / event time, and the more events
   * wait together, the larger and cheaper the consumers' batches.
   */
  @Process({ name: EVENTS_JOB, concurrency: DOMAIN_EVENT_CONCURRENCY })
  async handle(job: Job<DomainEventBatch>): Promise<void> {
    const { events } = job.data;
    const pending = job.attemptsMade > 0 ? await this.unprocessed(events) : events;
    await allThenFirstFailure(pending.map((event) => this.handleEvent(event)));
  }

  /**
   * The consumers of the event's type side by side, all to the end; if any failed, the event is
   * tried again with its job, for all. A type this worker does not know (from another version)
   * reaches no consumer: the event is marked processed.
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
