import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CascadeTo } from '../../common/database/cascade-to';
import { Appointment } from '../availability';

export type Channel = 'email' | 'sms';

/** What a message is about: the three domain events a client hears of, and the reminder. */
export type NotificationKind = 'confirmation' | 'rescheduled' | 'canceled' | 'reminder';

/**
 * `pending` while attempts remain, then `sent`, `failed` (refused for good, or every attempt
 * failed) or `skipped` (decided not to send; `error` says why).
 */
export type NotificationStatus = 'pending' | 'sent' | 'failed' | 'skipped';

/** One message to a client, or the decision not to send it. Written by the worker only. */
@Entity('notifications')
@Index('uq_notifications_dedupe', ['dedupeKey'], { unique: true })
@Index('idx_notifications_appointment', ['appointmentId', 'kind', 'status'])
@Index('idx_notifications_event', ['outboxId'])
export class Notification {
  /** BIGINT, read as a string (exact beyond 2^53). */
  @PrimaryGeneratedColumn({ type: 'bigint', unsigned: true })
  id!: string;

  @Column({ name: 'account_id', type: 'int', unsigned: true })
  accountId!: number;

  @CascadeTo(() => Appointment, 'fk_notifications_appointment')
  @Column({ name: 'appointment_id', type: 'int', unsigned: true })
  appointmentId!: number;

  /** The domain event a confirmation or notice answers; null for a reminder. */
  @Column({ name: 'outbox_id', type: 'bigint', unsigned: true, nullable: true })
  outboxId!: string | null;

  /** The start time a reminder is about (UTC); null for the other kinds. */
  @Column({ name: 'reminder_for', type: 'datetime', precision: 3, nullable: true })
  reminderFor!: Date | null;

  /** `event:<outboxId>:<channel>` or `reminder:<appointmentId>:<start ms>:<channel>`. */
  @Column({ name: 'dedupe_key', type: 'varchar', length: 96 })
  dedupeKey!: string;

  @Column({ type: 'varchar', length: 8 })
  channel!: Channel;

  @Column({ type: 'varchar', length: 16 })
  kind!: NotificationKind;

  /** The e-mail address or phone number, as it was when last decided or attempted. */
  @Column({ type: 'varchar', length: 254 })
  recipient!: string;

  @Column({ type: 'varchar', length: 8 })
  status!: NotificationStatus;

  /** Sending attempts made (a skipped message has none). */
  @Column({ type: 'smallint', unsigned: true, default: 0 })
  attempts!: number;

  /** Why the last attempt failed, or why the message was skipped. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  error!: string | null;

  /** The SMTP Message-ID or the SMS provider's message id, once sent. */
  @Column({ name: 'provider_message_id', type: 'varchar', length: 255, nullable: true })
  providerMessageId!: string | null;

  /** When it is to go: at once for the message of an event, the reminder's time for a reminder. */
  @Column({ name: 'due_at', type: 'datetime', precision: 3 })
  dueAt!: Date;

  /** While an attempt is in flight, until when its job owns the row. */
  @Column({ name: 'leased_until', type: 'datetime', precision: 3, nullable: true })
  leasedUntil!: Date | null;

  @Column({ name: 'sent_at', type: 'datetime', precision: 3, nullable: true })
  sentAt!: Date | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}
