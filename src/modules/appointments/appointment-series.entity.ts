import { Column, Entity, Index } from 'typeorm';
import { TenantEntity } from '../../common/database/tenant-entity';
import type { Frequency } from '../catalog';
import { LockVersionColumn } from '../../common/database/row-locks';

/** Appointments booked together as one series, all or nothing (docs/series.md). */
@Entity('appointment_series')
@Index('idx_appointment_series_account', ['accountId'])
export class AppointmentSeries extends TenantEntity {
  /** Written by a lock (lockRows), never read: docs/architecture.md, "Locks are writes". */
  @LockVersionColumn()
  readonly lockVersion?: number;

  @Column({ name: 'appointment_type_id', type: 'int', unsigned: true })
  appointmentTypeId!: number;

  /** The one calendar that took every occurrence. */
  @Column({ name: 'calendar_id', type: 'int', unsigned: true })
  calendarId!: number;

  @Column({ type: 'varchar', length: 16 })
  frequency!: Frequency;

  @Column({ name: 'repeat_interval', type: 'tinyint', unsigned: true })
  interval!: number;

  @Column({ type: 'tinyint', unsigned: true })
  count!: number;

  /**
   * The rule's first instant: the first occurrence's start as booked (UTC), whose wall-clock time in
   * `timezone` every occurrence keeps. An occurrence moved later no longer says where the rule was.
   */
  @Column({ name: 'starts_at', type: 'datetime', precision: 3 })
  startsAt!: Date;

  /** The zone of the calendar when the series was booked: the rule's wall clock. */
  @Column({ type: 'varchar', length: 64 })
  timezone!: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;
}
