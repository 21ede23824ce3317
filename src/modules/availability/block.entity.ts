import { Column, Entity, Index } from 'typeorm';
import { TenantEntity } from '../../common/database/tenant-entity';

/** Time taken off a calendar (a holiday, a meeting): nothing can be booked over it. */
@Entity('blocks')
@Index('idx_blocks_calendar_end', ['calendarId', 'endsAt'])
@Index('idx_blocks_account_start', ['accountId', 'startsAt'])
export class Block extends TenantEntity {
  @Column({ name: 'calendar_id', type: 'int', unsigned: true })
  calendarId!: number;

  /** UTC. */
  @Column({ name: 'starts_at', type: 'datetime', precision: 3 })
  startsAt!: Date;

  /** UTC, after `startsAt`. */
  @Column({ name: 'ends_at', type: 'datetime', precision: 3 })
  endsAt!: Date;

  @Column({ type: 'text' })
  notes!: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;
}
