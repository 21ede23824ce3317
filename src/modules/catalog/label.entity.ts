import { Column, Entity, Index } from 'typeorm';
import { CatalogRow } from './catalog-row.entity';

/** A tag an owner puts on appointments ("Checked in", "Paid in cash"). */
@Entity('labels')
@Index('idx_labels_account', ['accountId', 'id'])
export class Label extends CatalogRow {
  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 32 })
  color!: string;
}
