import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, In } from 'typeorm';
import { insertRows } from '../database/insert-rows';
import type { DomainEvent } from './domain-event';
import { OutboxRecord } from './outbox-record.entity';

/** The outbox rows of a transaction's events, to hand to DomainEventPublisher once it committed. */
export interface PendingEvents {
  readonly records: OutboxRecord[];
}

/** A job added to the queue and the outbox rows whose events it carries. */
export interface DispatchedJob {
  jobId: string;
  outboxIds: string[];
}

/** Writes domain events in the caller's transaction: they exist iff their change was committed. */
export const Outbox = { record };

async function record(tx: EntityManager, events: readonly DomainEvent[]): Promise<PendingEvents> {
  if (!tx.queryRunner?.isTransactionActive) {
    throw new Error('Outbox.record must run inside a transaction');
  }
  const now = new Date();
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

/** The outbox's rows as the publisher, the relay, the processor and the metrics read and mark them. */
@Injectable()
export class OutboxRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Of the rows `ids`, those not marked processed yet. */
  async unprocessed(ids: string[]): Promise<Set<string>> {
    const rows: { id: string }[] = await this.dataSource.query(
      'SELECT id FROM outbox WHERE id IN (?) AND processed_at IS NULL',
      [ids],
    );
    return new Set(rows.map((r) => String(r.id)));
  }

  async markProcessed(ids: string[]): Promise<void> {
    await this.dataSource.query(
      'UPDATE outbox SET processed_at = ? WHERE id IN (?) AND processed_at IS NULL',
      [new Date(), ids],
    );
  }

  /** Records that the rows reached the queue, and in which job, in one UPDATE for all the jobs. */
  async markDispatched(jobs: DispatchedJob[], tx?: EntityManager): Promise<void> {
    const ids = jobs.flatMap((j) => j.outboxIds);
    if (ids.length === 0) return;
    const cases = jobs.map(() => 'WHEN id IN (?) THEN ?').join(' ');
    await (tx ?? this.dataSource.manager).query(
      `UPDATE outbox SET dispatched_at = ?, job_id = CASE ${cases} END
        WHERE id IN (?) AND dispatched_at IS NULL`,
      [new Date(), ...jobs.flatMap((j) => [j.outboxIds, j.jobId]), ids],
    );
  }

  /**
   * Up to `limit` unprocessed rows, locked (skipping those another relay holds): never dispatched
   * and created before `cutoff`, or dispatched before `redeliverCutoff`.
   */
  due(
    tx: EntityManager,
    { cutoff, redeliverCutoff }: { cutoff: Date; redeliverCutoff: Date },
    limit: number,
  ): Promise<OutboxRecord[]> {
    return tx
      .createQueryBuilder(OutboxRecord, 'o')
      .where('o.processed_at IS NULL')
      .andWhere(
        '((o.dispatched_at IS NULL AND o.created_at <= :cutoff) OR o.dispatched_at <= :redeliverCutoff)',
        { cutoff, redeliverCutoff },
      )
      .orderBy('o.id', 'ASC')
      .limit(limit)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getMany();
  }

  async set(
    tx: EntityManager,
    ids: string[],
    columns: Partial<Pick<OutboxRecord, 'dispatchedAt' | 'processedAt' | 'jobId'>>,
  ): Promise<void> {
    if (ids.length > 0) await tx.update(OutboxRecord, { id: In(ids) }, columns);
  }

  /** When the oldest row not dispatched, and the oldest not processed, was created. */
  async oldest(): Promise<{ undispatched: Date | null; unprocessed: Date | null }> {
    const [row] = await this.dataSource.query<
      { undispatched: Date | null; unprocessed: Date | null }[]
    >(
      `SELECT
         (SELECT created_at FROM outbox WHERE dispatched_at IS NULL ORDER BY id LIMIT 1) AS undispatched,
         (SELECT created_at FROM outbox WHERE processed_at IS NULL ORDER BY id LIMIT 1) AS unprocessed`,
    );
    return row;
  }
}
