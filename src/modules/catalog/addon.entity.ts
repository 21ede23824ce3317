import { Column, Entity, Index } from 'typeorm';
import { CatalogRow } from './catalog-row.entity';

/** An extra a client adds to an appointment: more time, more price. */
@Entity('addons')
@Index('idx_addons_account', ['accountId', 'id'])
export class Addon extends CatalogRow {
  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** Minutes added to the appointment. */
  @Column({ type: 'smallint', unsigned: true, default: 0 })
  duration!: number;

  @Column({ name: 'price_cents', type: 'int', unsigned: true, default: 0 })
  priceCents!: number;

  @Column({ type: 'boolean', default: false })
  private!: boolean;
}
