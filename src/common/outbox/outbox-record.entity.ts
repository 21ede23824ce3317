import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { RecordedEvent } from './domain-event';
import type { DomainEventType } from './domain-event-types';

@Entity('outbox')
@Index('idx_outbox_pending', ['dispatchedAt', 'id'])
@Index('idx_outbox_unprocessed', ['processedAt', 'id'])
export class OutboxRecord {
  /** BIGINT, read as a string (exact beyond 2^53). */
  @PrimaryGeneratedColumn({ type: 'bigint', unsigned: true })
  id!: string;

  @Column({ name: 'account_id', type: 'int', unsigned: true, nullable: true })
  accountId!: number | null;

  @Column({ type: 'varchar', length: 64 })
  type!: DomainEventType;

  @Column({ type: 'json' })
  payload!: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;

  /** When the event reached the queue; null while pending. */
  @Column({ name: 'dispatched_at', type: 'datetime', precision: 3, nullable: true })
  dispatchedAt!: Date | null;

  /** The queue's job that carries the event (a batch of events); null before its dispatch. */
  @Column({ name: 'job_id', type: 'varchar', length: 64, nullable: true })
  jobId!: string | null;

  /** When the consumers had handled the event; the relay hands rows long unprocessed over again. */
  @Column({ name: 'processed_at', type: 'datetime', precision: 3, nullable: true })
  processedAt!: Date | null;
}

/** The row's event: its payload is what the producer of its type wrote (DomainEventPayloads). */
export function toRecordedEvent(row: OutboxRecord): RecordedEvent {
  return {
    outboxId: String(row.id),
    type: row.type,
    accountId: row.accountId,
    payload: row.payload,
    occurredAt: row.createdAt.toISOString(),
  } as RecordedEvent;
}
