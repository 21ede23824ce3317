import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { LockVersionColumn } from '../../common/database/row-locks';

/** Per-minute requests of an enterprise's credential, across its members, unless the operator sets another. */
export const DEFAULT_ENTERPRISE_REQUESTS_PER_MINUTE = 6000;

/**
 * An enterprise: one credential (its id and API key, Basic auth) that acts on any of its member
 * accounts through `/api/enterprise/v1` (docs/enterprise.md). Its key is kept as an account's is.
 */
@Entity('enterprises')
export class Enterprise {
  /** Written by a lock (lockRows), never read: docs/architecture.md, "Locks are writes". */
  @LockVersionColumn()
  readonly lockVersion?: number;

  /** The enterprise's id: the Basic-auth username of the enterprise API. */
  @PrimaryGeneratedColumn({ type: 'int', unsigned: true })
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** Keyed hash of the API key: how a presented key is recognised. */
  @Column({ name: 'api_key_hash', type: 'char', length: 64 })
  apiKeyHash!: string;

  /** The API key encrypted with the server secret: it keys the enterprise's webhook signatures. */
  @Column({ name: 'api_key_encrypted', type: 'varchar', length: 255 })
  apiKeyEncrypted!: string;

  /** The operator's limit on the enterprise's requests, all members together (Redis, all pods). */
  @Column({
    name: 'requests_per_minute',
    type: 'int',
    unsigned: true,
    default: DEFAULT_ENTERPRISE_REQUESTS_PER_MINUTE,
  })
  requestsPerMinute!: number;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}
