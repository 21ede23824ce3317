import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A time held for a client while they pay or fill in a form (`/slot-holds`). In availability, not in
 * the holds module, because a live hold is busy time: the busy check reads it as it reads
 * appointments (by calendar and `busyFrom`), and a class hold takes a seat as an appointment does.
 * It is live while `expiresAt` is after now; an expired row is busy for nobody (no job is needed for
 * a hold to end), and the worker's sweeper only deletes it.
 */
@Entity('slot_holds')
@Index('idx_slot_holds_token', ['tokenHash'], { unique: true })
@Index('idx_slot_holds_calendar_busy', ['calendarId', 'busyFrom'])
@Index('idx_slot_holds_class', ['classId'])
@Index('idx_slot_holds_type_start', ['appointmentTypeId', 'startsAt'])
@Index('idx_slot_holds_expiry', ['expiresAt'])
@Index('idx_slot_holds_account_origin', ['accountId', 'origin', 'expiresAt'])
export class SlotHold {
  @PrimaryGeneratedColumn({ type: 'int', unsigned: true })
  id!: number;

  @Column({ name: 'account_id', type: 'int', unsigned: true })
  accountId!: number;

  @Column({ name: 'appointment_type_id', type: 'int', unsigned: true })
  appointmentTypeId!: number;

  @Column({ name: 'calendar_id', type: 'int', unsigned: true })
  calendarId!: number;

  /** The class session it takes a seat of; null for a service. */
  @Column({ name: 'class_id', type: 'int', unsigned: true, nullable: true })
  classId!: number | null;

  /** UTC. */
  @Column({ name: 'starts_at', type: 'datetime', precision: 3 })
  startsAt!: Date;

  /** The time it keeps its calendar busy: as the appointment it holds for would, padding included. */
  @Column({ name: 'busy_from', type: 'datetime', precision: 3 })
  busyFrom!: Date;

  @Column({ name: 'busy_until', type: 'datetime', precision: 3 })
  busyUntil!: Date;

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
