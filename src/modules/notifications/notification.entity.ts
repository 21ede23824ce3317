import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Appointment } from '../availability';

export const CHANNELS = ['email', 'sms'] as const;
export type Channel = (typeof CHANNELS)[number];

/** What a message is about: the three domain events a client hears of, and the reminder. */
export const NOTIFICATION_KINDS = ['confirmation', 'rescheduled', 'canceled', 'reminder'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * `pending` until it is sent (attempts may have failed and more remain), then `sent`, `failed`
 * (refused for good, or every attempt failed) or `skipped` (decided not to send; `error` says why:
 * `noEmail`, a setting, no SMS opt-in, the appointment canceled or started meanwhile).
 */
export type NotificationStatus = 'pending' | 'sent' | 'failed' | 'skipped';

/**
 * One message to a client, or the decision not to send it: what an admin reads to know what a
 * client was told (`GET /appointments/{id}/notifications`). Written by the worker only.
 */
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

  @ForeignKey(() => Appointment, {
    name: 'fk_notifications_appointment',
    onDelete: 'CASCADE',
    onUpdate: 'RESTRICT',
  })
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
