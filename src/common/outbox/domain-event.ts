import type { DomainEventType } from './domain-event-types';

/**
 * Something that happened in the domain and must reach the outside (webhooks, notifications). It is
 * recorded in the `outbox` table inside the transaction that made it happen, then delivered through
 * Bull at least once to the worker's consumers of its type (see DomainEventsProcessor).
 */
export abstract class DomainEvent<P extends object = Record<string, unknown>> {
  /** What happened: the outbox row's `type`, by which the worker picks the event's consumers. */
  abstract readonly type: DomainEventType;

  constructor(
    readonly accountId: number | null,
    readonly payload: P,
  ) {}
}

/** A domain event as it travels through the queue: its outbox row id is its identity. */
export interface RecordedEvent {
  outboxId: string;
  type: DomainEventType;
  accountId: number | null;
  payload: Record<string, unknown>;
  occurredAt: string;
}

/**
 * A job of the domain-events queue: the events of the outbox rows handed over together (one or more
 * transactions'). One job for many events: a Bull job costs about as much as the events it carries
 * cost to handle (see OutboxDispatcher).
 */
export interface DomainEventBatch {
  events: RecordedEvent[];
}
