import { Column, Entity, Index } from 'typeorm';
import { CatalogRow } from './catalog-row.entity';
import { LockVersionColumn } from '../../common/database/row-locks';

/**
 * A room or a piece of equipment the account's calendars share: `quantity` units, one taken by each
 * appointment, hold or class session of a type that lists it, for its whole span (docs/resources.md).
 */
@Entity('resources')
@Index('idx_resources_account', ['accountId', 'id'])
export class Resource extends CatalogRow {
  /** Written by a lock (lockRows), never read: docs/architecture.md, "Locks are writes". */
  @LockVersionColumn()
  readonly lockVersion?: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'smallint', unsigned: true })
  quantity!: number;
}
