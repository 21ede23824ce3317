import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { DomainEvent } from './domain-event';
import { OutboxRecord } from './outbox-record.entity';

/** Events written in a transaction, to hand to DomainEventPublisher once it has committed. */
export interface PendingEvents {
  readonly events: DomainEvent[];
  readonly records: OutboxRecord[];
}

/**
 * Writes domain events to the outbox with the caller's transaction, so that they exist if and only
 * if the change that caused them was committed.
 */
@Injectable()
export class Outbox {
  async record(tx: EntityManager, events: DomainEvent[]): Promise<PendingEvents> {
    if (!tx.queryRunner?.isTransactionActive) {
      throw new Error('Outbox.record must run inside a transaction');
    }
    const now = new Date();
    const records = events.map((e) =>
      tx.create(OutboxRecord, {
        accountId: e.accountId,
        type: e.type,
        payload: { ...e.payload },
        createdAt: now,
        dispatchedAt: null,
      }),
    );
    // insert() sets each record's generated id (consecutive ids from the batch's first one).
    if (records.length > 0)
      await tx.insert(OutboxRecord, records as QueryDeepPartialEntity<OutboxRecord>[]);
    return { events, records };
  }
}
