import { Entity, PrimaryColumn } from 'typeorm';
import { LockVersionColumn } from '../../common/database/row-locks';

/**
 * A resource's UTC day that some booking touched: the row a booking locks, for each day its span
 * touches, before it reads the resource's uses (resource-usage.repository.ts: lockResources, or
 * the calendar's locking statement). Written by a day's first booking, never read for its content.
 */
@Entity('resource_days')
export class ResourceDay {
  /** Written by a lock (lockRows), never read: docs/architecture.md, "Locks are writes". */
  @LockVersionColumn()
  readonly lockVersion?: number;

  @PrimaryColumn({ name: 'account_id', type: 'int', unsigned: true })
  accountId!: number;

  @PrimaryColumn({ name: 'resource_id', type: 'int', unsigned: true })
  resourceId!: number;

  @PrimaryColumn({ type: 'date' })
  day!: string;
}
