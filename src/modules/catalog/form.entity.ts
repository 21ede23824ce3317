import { Column, Entity, Index } from 'typeorm';
import { CatalogRow } from './catalog-row.entity';
import { LockVersionColumn } from '../../common/database/row-locks';

/**
 * An intake form, asked when booking the types it is linked to. In the catalog, below forms, as
 * types check and list their forms; its fields, /forms and the rules of answers are in forms.
 */
@Entity('forms')
@Index('idx_forms_account', ['accountId', 'id'])
export class Form extends CatalogRow {
  /** Written by a lock (lockRows), never read: docs/architecture.md, "Locks are writes". */
  @LockVersionColumn()
  readonly lockVersion?: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text' })
  description!: string;

  /** Shown to admins only: clients neither see nor answer its fields. */
  @Column({ type: 'boolean', default: false })
  hidden!: boolean;
}
