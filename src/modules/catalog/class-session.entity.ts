import { Column, Entity, Index } from 'typeorm';
import { TenantEntity } from '../../common/database/tenant-entity';

/** One session of a class-type offering, on a calendar; its seats are the type's `classSize`. */
@Entity('classes')
@Index('idx_classes_account_start', ['accountId', 'startsAt'])
@Index('idx_classes_calendar_start', ['calendarId', 'startsAt'])
@Index('idx_classes_type_start', ['appointmentTypeId', 'startsAt'])
export class ClassSession extends TenantEntity {
  @Column({ name: 'appointment_type_id', type: 'int', unsigned: true })
  appointmentTypeId!: number;

  @Column({ name: 'calendar_id', type: 'int', unsigned: true })
  calendarId!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** UTC. */
  @Column({ name: 'starts_at', type: 'datetime', precision: 3 })
  startsAt!: Date;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;
}
