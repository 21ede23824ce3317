import { Column, Entity, Index } from 'typeorm';
import { BusyRow } from './busy-row.entity';
import { LockVersionColumn } from '../../common/database/row-locks';

/**
 * A time held for a client while they pay or fill in a form (`/slot-holds`). In availability, not
 * in holds, because a live hold is busy time (read as appointments are) or takes a class seat. Live
 * while `expiresAt` is after now: an expired row is busy for nobody, the worker's sweeper only
 * deletes it.
 */
@Entity('slot_holds')
@Index('idx_slot_holds_token', ['tokenHash'], { unique: true })
@Index('idx_slot_holds_calendar_busy', ['calendarId', 'busyFrom'])
@Index('idx_slot_holds_class', ['classId'])
@Index('idx_slot_holds_type_start', ['appointmentTypeId', 'startsAt'])
@Index('idx_slot_holds_expiry', ['expiresAt'])
@Index('idx_slot_holds_account_origin', ['accountId', 'origin', 'expiresAt'])
export class SlotHold extends BusyRow {
  /** Written by a lock (lockRows), never read: docs/architecture.md, "Locks are writes". */
  @LockVersionColumn()
  readonly lockVersion?: number;

  @Column({ name: 'addon_ids', type: 'json' })
  addonIds!: number[];

  /** What its times are shown in: the client's zone when given, else the calendar's. */
  @Column({ type: 'varchar', length: 64 })
  timezone!: string;

  /** SHA-256 of the token given once at creation; the token itself is never stored. */
  @Column({ name: 'token_hash', type: 'binary', length: 32 })
  tokenHash!: Buffer;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt!: Date;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;

  /** Who made it: an authenticated caller (`api`) or a visitor of the scheduling page (`page`). */
  @Column({ type: 'varchar', length: 8, default: 'api' })
  origin!: HoldOrigin;

  /** A page hold's visitor: SHA-256 of their page session (see holds' PageVisitor); null for the API. */
  @Column({ name: 'visitor_hash', type: 'binary', length: 32, nullable: true })
  visitorHash!: Buffer | null;

  /** A page hold's network: a keyed hash of the client's address (see PageVisitor); null for the API. */
  @Column({ name: 'address_hash', type: 'binary', length: 32, nullable: true })
  addressHash!: Buffer | null;
}

export type HoldOrigin = 'api' | 'page';
