import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { EventBus } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '../logging/logging.module';
import type { PendingEvents } from './outbox';
import { OutboxDispatcher } from './outbox-dispatcher';

/**
 * After a transaction committed: publishes its events in-process (EventBus) and hands its outbox rows
 * to the queue without making the caller wait. If that fails (Redis down, process killed), the
 * worker's relay enqueues the rows a few seconds later: nothing is lost, nothing is sent twice.
 */
@Injectable()
export class DomainEventPublisher implements OnApplicationShutdown {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly eventBus: EventBus,
    private readonly dispatcher: OutboxDispatcher,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  publishAfterCommit({ events, records }: PendingEvents): void {
    if (events.length === 0) return;
    this.eventBus.publishAll(events);
    if (!this.dispatcher.queueReady) return; // the relay will do it
    const dispatch = this.dispatcher
      .dispatch(records)
      .catch((err: unknown) =>
        this.logger.warn(
          { err, outboxIds: records.map((r) => r.id) },
          'outbox dispatch deferred to the relay',
        ),
      )
      .finally(() => this.inFlight.delete(dispatch));
    this.inFlight.add(dispatch);
  }

  /** Lets dispatches already started finish before the pools close. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }
}
