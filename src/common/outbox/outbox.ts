import type { EntityManager } from 'typeorm';
import { insertRows } from '../database/insert-rows';
import type { DomainEvent } from './domain-event';
import { OutboxRecord } from './outbox-record.entity';

/** The outbox rows of a transaction's events, to hand to DomainEventPublisher once it committed. */
export interface PendingEvents {
  readonly records: OutboxRecord[];
}

/**
 * Writes domain events to the outbox with the caller's transaction, so that they exist if and only
 * if the change that caused them was committed (UnitOfWork calls it before its commit).
 */
export const Outbox = { record };

async function record(tx: EntityManager, events: readonly DomainEvent[]): Promise<PendingEvents> {
  if (!tx.queryRunner?.isTransactionActive) {
    throw new Error('Outbox.record must run inside a transaction');
  }
  const now = new Date();
  // Plain assignment of every column: TypeORM's create() walked the entity's metadata for it.
  const records = events.map((e) =>
    Object.assign(new OutboxRecord(), {
      accountId: e.accountId,
      type: e.type,
      payload: { ...e.payload },
      createdAt: now,
      dispatchedAt: null,
      jobId: null,
    }),
  );
  if (records.length > 0) {
    const first = await insertRows(tx, OutboxRecord, records);
    records.forEach((record, i) => (record.id = String(first + BigInt(i))));
  }
  return { records };
}
