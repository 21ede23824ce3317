import { Column, Entity, Index } from 'typeorm';
import type { DateOverrides, WeeklyHours } from './working-hours';
import { CatalogRow } from './catalog-row.entity';
import { LockVersionColumn } from '../../common/database/row-locks';

/** A calendar (a staff member, a room): where appointments are booked, in its own zone. */
@Entity('calendars')
@Index('idx_calendars_account', ['accountId', 'id'])
export class Calendar extends CatalogRow {
  /** Written by a lock (lockRows), never read: docs/architecture.md, "Locks are writes". */
  @LockVersionColumn()
  readonly lockVersion?: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 254, default: '' })
  email!: string;

  @Column({ name: 'reply_to', type: 'varchar', length: 254, default: '' })
  replyTo!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  location!: string;

  /** IANA zone name: hours, overrides and availability are read in it. */
  @Column({ type: 'varchar', length: 64 })
  timezone!: string;

  @Column({ type: 'varchar', length: 2048, default: '' })
  image!: string;

  @Column({ type: 'varchar', length: 2048, default: '' })
  thumbnail!: string;

  /** Weekly working intervals by day name, sorted and non-overlapping. */
  @Column({ type: 'json' })
  hours!: WeeklyHours;

  /** Date (`YYYY-MM-DD`) → that day's intervals instead of the weekly ones; `[]` closes the day. */
  @Column({ type: 'json' })
  overrides!: DateOverrides;

  /** At most this many live appointments a local day of the calendar's zone; null: no limit. */
  @Column({ name: 'max_per_day', type: 'smallint', unsigned: true, nullable: true })
  maxPerDay!: number | null;

  /** At most this many a week (ISO: Monday to Sunday) of the calendar's zone; null: no limit. */
  @Column({ name: 'max_per_week', type: 'smallint', unsigned: true, nullable: true })
  maxPerWeek!: number | null;

  /**
   * The kinds of busy time the calendar has ever had (BusyKind bits), written by markBusyKind only:
   * never selected, inserted or saved through the entity, so that saving a calendar read earlier
   * cannot clear a bit set meanwhile.
   */
  @Column({
    name: 'busy_kinds',
    type: 'tinyint',
    unsigned: true,
    default: 0,
    select: false,
    insert: false,
    update: false,
  })
  busyKinds?: number;
}
