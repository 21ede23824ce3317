import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A booked appointment. This is the part the slot engine reads (where and when it keeps a calendar
 * busy); booking adds the client's side.
 *
 * `busyFrom`/`busyUntil` are the time the appointment takes from its calendar: start minus the type's
 * padding before, end plus its padding after, as they were when it was booked. Availability reads a
 * calendar's appointments through `idx_appointments_calendar_busy`, bounded on both sides (see
 * MAX_BUSY_SPAN_MINUTES), so a day costs the same whatever the calendar's history.
 */
@Entity('appointments')
@Index('idx_appointments_calendar_busy', ['calendarId', 'busyFrom'])
@Index('idx_appointments_class', ['classId'])
@Index('idx_appointments_account_start', ['accountId', 'startsAt'])
export class Appointment {
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

  /** UTC: start plus the duration and the addons' durations. */
  @Column({ name: 'ends_at', type: 'datetime', precision: 3 })
  endsAt!: Date;

  @Column({ name: 'busy_from', type: 'datetime', precision: 3 })
  busyFrom!: Date;

  @Column({ name: 'busy_until', type: 'datetime', precision: 3 })
  busyUntil!: Date;

  /** A canceled appointment frees its time and its seat. */
  @Column({ type: 'boolean', default: false })
  canceled!: boolean;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}
