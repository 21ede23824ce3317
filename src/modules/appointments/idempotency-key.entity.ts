import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The booking an `Idempotency-Key` made (kept 24 hours). Keys compare byte for byte. */
@Entity('idempotency_keys')
@Index('idx_idempotency_keys_created', ['createdAt'])
export class IdempotencyKey {
  @PrimaryColumn({ name: 'account_id', type: 'int', unsigned: true })
  accountId!: number;

  @PrimaryColumn({
    name: 'idempotency_key',
    type: 'varchar',
    length: 255,
    collation: 'utf8mb4_bin',
  })
  key!: string;

  /** SHA-256 of the request (body and flags), so that a key reused for another request is refused. */
  @Column({ name: 'request_hash', type: 'char', length: 64, collation: 'utf8mb4_bin' })
  requestHash!: string;

  @Column({ name: 'appointment_id', type: 'int', unsigned: true })
  appointmentId!: number;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;
}
