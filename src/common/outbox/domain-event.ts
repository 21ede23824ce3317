import type { DomainEventPayloads, DomainEventType } from './domain-event-types';

/**
 * Something that happened and must reach the outside: recorded in the `outbox` table in the
 * transaction that made it happen, then delivered at least once to the worker's consumers.
 */
export abstract class DomainEvent<T extends DomainEventType = DomainEventType> {
  abstract readonly type: T;

  constructor(
    readonly accountId: number | null,
    readonly payload: DomainEventPayloads[T],
  ) {}
}

/** A domain event as it travels through the queue (its outbox row id is its identity). */
export type RecordedEvent<T extends DomainEventType = DomainEventType> = {
  [K in T]: {
    outboxId: string;
    type: K;
    accountId: number | null;
    payload: DomainEventPayloads[K];
    occurredAt: string;
  };
}[T];

/** A job of the domain-events queue: the events of the outbox rows handed over together. */
export interface DomainEventBatch {
  events: RecordedEvent[];
}
