import type { RecordedEvent } from './domain-event';
import { DOMAIN_EVENT_TYPES, type DomainEventType } from './domain-event-types';

/**
 * A worker-side reader of domain events. Delivery is at least once: a consumer must be idempotent,
 * keyed by `event.outboxId`. One that throws fails the event's job, tried again for all consumers.
 */
export interface DomainEventConsumer<T extends DomainEventType = DomainEventType> {
  handle(event: RecordedEvent<T>): Promise<void>;
}

/** The consumers of every event type, each able to read that type's payload. */
export type DomainEventConsumers = Readonly<{
  [T in DomainEventType]: readonly DomainEventConsumer<T>[];
}>;

/** The Nest token of the worker's DomainEventConsumers (src/app/domain-event-consumers.ts). */
export const DOMAIN_EVENT_CONSUMERS = Symbol('DOMAIN_EVENT_CONSUMERS');

/**
 * The consumers of each type, or an error naming the types without any: the worker must not start
 * and mark events processed that nobody read.
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
