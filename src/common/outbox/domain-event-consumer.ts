import { SetMetadata, applyDecorators, Injectable } from '@nestjs/common';
import type { RecordedEvent } from './domain-event';

export const DOMAIN_EVENT_CONSUMER = 'outbox:domain-event-consumer';

/**
 * A worker-side reader of every domain event (webhook fan-out, notifications). Delivery is at least
 * once: a consumer must be idempotent, keyed by `event.outboxId` (e.g. as the jobId of what it
 * enqueues). A consumer that throws makes the job retry for all consumers.
 */
export interface DomainEventHandler {
  handle(event: RecordedEvent): Promise<void>;
}

/** Marks a provider as a DomainEventHandler; the worker's processor discovers it at start. */
export const DomainEventConsumer = () =>
  applyDecorators(Injectable(), SetMetadata(DOMAIN_EVENT_CONSUMER, true));
