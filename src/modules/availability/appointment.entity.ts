import { Column, Entity, Index } from 'typeorm';
import { LockVersionColumn } from '../../common/database/row-locks';
import type { Language } from '../../common/i18n/languages';
import { BusyRow } from './busy-row.entity';

/**
 * A booked appointment; in availability, which reads it (busy time, seats) below appointments.
 * `busyFrom`/`busyUntil`: its time with the type's paddings when booked, read through
 * `idx_appointments_calendar_busy` bounded on both sides (MAX_BUSY_SPAN_MINUTES): a day costs the
 * same whatever the calendar's history.
 */
@Entity('appointments')
@Index('idx_appointments_calendar_busy', ['calendarId', 'busyFrom', 'busyUntil', 'canceled'])
@Index('idx_appointments_class', ['classId'])
@Index('idx_appointments_account_start', ['accountId', 'startsAt'])
@Index('idx_appointments_account_email', ['accountId', 'email', 'startsAt'])
// Covering for what is read by type and start: a resource's uses, a type's booking limits.
@Index('idx_appointments_type_start', [
  'appointmentTypeId',
  'startsAt',
  'busyFrom',
  'busyUntil',
  'canceled',
  'classId',
])
@Index('idx_appointments_series', ['seriesId', 'startsAt'])
export class Appointment extends BusyRow {
  /** Written by a lock (lockRows), never read: docs/architecture.md, "Locks are writes". */
  @LockVersionColumn()
  readonly lockVersion?: number;

  /** UTC: start plus the duration and the addons' durations. */
  @Column({ name: 'ends_at', type: 'datetime', precision: 3 })
  endsAt!: Date;

  /** A canceled appointment frees its time and its seat. */
  @Column({ type: 'boolean', default: false })
  canceled!: boolean;

  @Column({ name: 'first_name', type: 'varchar', length: 255, default: '' })
  firstName!: string;

  @Column({ name: 'last_name', type: 'varchar', length: 255, default: '' })
  lastName!: string;

  @Column({ type: 'varchar', length: 254, default: '' })
  email!: string;

  @Column({ type: 'varchar', length: 64, default: '' })
  phone!: string;

  /** The client's zone (what times are shown in), else the calendar's. */
  @Column({ type: 'varchar', length: 64, default: 'UTC' })
  timezone!: string;

  @Column({ type: 'text', nullable: true })
  notes!: string | null;

  /** The type's price and the addons', in cents. */
  @Column({ name: 'price_cents', type: 'int', unsigned: true, default: 0 })
  priceCents!: number;

  /** What the client pays: after a coupon, nothing with a package. */
  @Column({ name: 'price_sold_cents', type: 'int', unsigned: true, default: 0 })
  priceSoldCents!: number;

  @Column({ name: 'amount_paid_cents', type: 'int', unsigned: true, default: 0 })
  amountPaidCents!: number;

  /** The code presented, as stored (upper-cased). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  certificate!: string | null;

  /** The certificate whose use it took (a package's use is given back on cancel). */
  @Column({ name: 'certificate_id', type: 'int', unsigned: true, nullable: true })
  certificateId!: number | null;

  @Column({ name: 'addon_ids', type: 'json', nullable: true })
  addonIds!: number[] | null;

  @Column({ name: 'label_id', type: 'int', unsigned: true, nullable: true })
  labelId!: number | null;

  @Column({ name: 'sms_opt_in', type: 'boolean', default: false })
  smsOptIn!: boolean;

  @Column({ name: 'no_show', type: 'boolean', default: false })
  noShow!: boolean;

  @Column({ name: 'cancel_note', type: 'text', nullable: true })
  cancelNote!: string | null;

  @Column({ name: 'canceled_at', type: 'datetime', precision: 3, nullable: true })
  canceledAt!: Date | null;

  /** Who booked as admin (the account's e-mail); null when the client booked. */
  @Column({ name: 'scheduled_by', type: 'varchar', length: 254, nullable: true })
  scheduledBy!: string | null;

  /** The series it is an occurrence of (docs/series.md); null: booked alone. */
  @Column({ name: 'series_id', type: 'int', unsigned: true, nullable: true })
  seriesId!: number | null;

  /** The language of the page it was booked on (its messages'); null: the account's. */
  @Column({ type: 'varchar', length: 5, nullable: true })
  language!: Language | null;

  /** The iCalendar SEQUENCE (RFC 5546): raised by a move or cancel, so calendars replace theirs. */
  @Column({ type: 'int', unsigned: true, default: 0 })
  sequence!: number;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}
