import type { RecordedEvent } from './domain-event';
import { DOMAIN_EVENT_TYPES, type DomainEventType } from './domain-event-types';

/**
 * A worker-side reader of domain events (webhook fan-out, notification planning). Delivery is at
 * least once: a consumer must be idempotent, keyed by `event.outboxId` (e.g. as the jobId of what
 * it enqueues). A consumer that throws makes the event's job fail, and Bull tries the event again
 * for all its consumers.
 */
export interface DomainEventConsumer<T extends DomainEventType = DomainEventType> {
  handle(event: RecordedEvent<T>): Promise<void>;
}

/**
 * Which consumers each event type reaches: every type, each with one consumer at least, each able
 * to read that type's payload.
 */
export type DomainEventConsumers = Readonly<{
  [T in DomainEventType]: readonly DomainEventConsumer<T>[];
}>;

/**
 * The Nest token of the worker's DomainEventConsumers, which DomainEventsProcessor reads. The
 * worker module provides it (src/app/domain-event-consumers.ts); tests may override it.
 */
export const DOMAIN_EVENT_CONSUMERS = Symbol('DOMAIN_EVENT_CONSUMERS');

/**
 * The consumers of each type, or an error naming the types without any: the worker must not start
 * and take events it would mark processed without anyone having read them.
 */
export function consumersByType(
  consumers: DomainEventConsumers,
): ReadonlyMap<DomainEventType, readonly DomainEventConsumer[]> {
  const missing = DOMAIN_EVENT_TYPES.filter((type) => !(consumers[type]?.length > 0));
  if (missing.length > 0) {
    const names = missing.map((type) => `"${type}"`).join(', ');
    throw new Error(
      `No consumer for domain event type ${names}: the worker cannot start. ` +
        'Give each type its consumers in src/app/domain-event-consumers.ts.',
    );
  }
  return new Map(DOMAIN_EVENT_TYPES.map((type) => [type, consumers[type]]));
}
