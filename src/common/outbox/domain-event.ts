import type { DomainEventPayloads, DomainEventType } from './domain-event-types';

/**
 * Something that happened in the domain and must reach the outside (webhooks, notifications). It is
 * recorded in the `outbox` table inside the transaction that made it happen, then delivered through
 * Bull at least once to the worker's consumers of its type (see DomainEventsProcessor).
 */
export abstract class DomainEvent<T extends DomainEventType = DomainEventType> {
  /** What happened: the outbox row's `type`, by which the worker picks the event's consumers. */
  abstract readonly type: T;

  constructor(
    readonly accountId: number | null,
    readonly payload: DomainEventPayloads[T],
  ) {}
}

/**
 * A domain event of type `T` as it travels through the queue: its outbox row id is its identity.
 * `RecordedEvent` without `T` is any of them, its payload typed by its `type`.
 */
export type RecordedEvent<T extends DomainEventType = DomainEventType> = {
  [K in T]: {
    outboxId: string;
    type: K;
    accountId: number | null;
    payload: DomainEventPayloads[K];
    occurredAt: string;
  };
}[T];

/**
 * A job of the domain-events queue: the events of the outbox rows handed over together (one or more
 * transactions'). One job for many events: a Bull job costs about as much as the events it carries
 * cost to handle (see OutboxDispatcher).
 */
export interface DomainEventBatch {
  events: RecordedEvent[];
}
