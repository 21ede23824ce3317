import type {
  DomainEventConsumer,
  DomainEventConsumers,
} from '../../src/common/outbox/domain-event-consumer';
import {
  DOMAIN_EVENT_TYPES,
  type DomainEventType,
} from '../../src/common/outbox/domain-event-types';

/** A map of consumers (in place of the worker's) that gives every event type to `consumers`. */
export function everyTypeTo(...consumers: DomainEventConsumer[]): DomainEventConsumers {
  return Object.fromEntries(DOMAIN_EVENT_TYPES.map((type) => [type, consumers])) as Record<
    DomainEventType,
    DomainEventConsumer[]
  >;
}
