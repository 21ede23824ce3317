import { Column, Entity, Index } from 'typeorm';
import { TenantEntity } from '../../common/database/tenant-entity';
import { CLIENT_TEXT_LIMITS } from './client-details';
import { LockVersionColumn } from '../../common/database/row-locks';

/**
 * A person of the client list, added by `POST /clients` or a booking (upsertBookingClient). Not a
 * foreign key of appointments: an appointment keeps the details as they were booked.
 */
@Entity('clients')
@Index('uq_clients_identity', ['accountId', 'identityKey'], { unique: true })
@Index('idx_clients_account_name', ['accountId', 'lastName', 'firstName'])
export class Client extends TenantEntity {
  /** Written by a lock (lockRows), never read: docs/architecture.md, "Locks are writes". */
  @LockVersionColumn()
  readonly lockVersion?: number;

  /** identityKey() of the details below. */
  @Column({ name: 'identity_key', type: 'char', length: 64, collation: 'utf8mb4_bin' })
  identityKey!: string;

  @Column({ name: 'first_name', type: 'varchar', length: CLIENT_TEXT_LIMITS.firstName })
  firstName!: string;

  @Column({ name: 'last_name', type: 'varchar', length: CLIENT_TEXT_LIMITS.lastName })
  lastName!: string;

  /** Lower-cased; `""` for none. */
  @Column({ type: 'varchar', length: CLIENT_TEXT_LIMITS.email })
  email!: string;

  /** As given (trimmed); `""` for none. */
  @Column({ type: 'varchar', length: CLIENT_TEXT_LIMITS.phone })
  phone!: string;

  /** The owner's notes about the client (never the appointments' notes); `""` for none. */
  @Column({ type: 'text' })
  notes!: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}
