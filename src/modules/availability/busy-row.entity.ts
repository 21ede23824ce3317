import { Column } from 'typeorm';
import { TenantEntity } from '../../common/database/tenant-entity';

/**
 * The columns of a row that keeps a calendar busy or takes a class seat: an appointment, or a slot
 * hold kept for one. `busyFrom`/`busyUntil`: its time with the type's paddings.
 */
export abstract class BusyRow extends TenantEntity {
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

  @Column({ name: 'busy_from', type: 'datetime', precision: 3 })
  busyFrom!: Date;

  @Column({ name: 'busy_until', type: 'datetime', precision: 3 })
  busyUntil!: Date;

  /**
   * A collective type's: the calendars it takes besides its host's (`calendarId`), each with a
   * member row (calendar-member.entity.ts); null for any other.
   */
  @Column({ name: 'member_calendar_ids', type: 'json', nullable: true })
  memberCalendarIds!: number[] | null;
}
