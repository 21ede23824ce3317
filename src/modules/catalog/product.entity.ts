import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CatalogRow } from './catalog-row.entity';
import { LockVersionColumn } from '../../common/database/row-locks';

export const PRODUCT_KINDS = ['appointments', 'gift', 'subscription'] as const;
export type ProductKind = (typeof PRODUCT_KINDS)[number];

/**
 * What a client buys: a package of appointments (counts per type), a gift certificate (worth its
 * price) or a subscription (counts per type, renewed by the payment side).
 */
@Entity('products')
@Index('idx_products_account', ['accountId', 'id'])
export class Product extends CatalogRow {
  /** Written by a lock (lockRows), never read: docs/architecture.md, "Locks are writes". */
  @LockVersionColumn()
  readonly lockVersion?: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ name: 'price_cents', type: 'int', unsigned: true, default: 0 })
  priceCents!: number;

  @Column({ type: 'varchar', length: 16 })
  kind!: ProductKind;

  @Column({ type: 'boolean', default: false })
  hidden!: boolean;

  /** Days a certificate issued from this product stays valid; null = it never expires. */
  @Column({ name: 'expires_days', type: 'int', unsigned: true, nullable: true })
  expiresDays!: number | null;
}

/** How many appointments of a type a package (or subscription) product gives. */
@Entity('product_appointment_types')
@Index('idx_product_appointment_types_type', ['appointmentTypeId'])
export class ProductAppointmentType {
  @PrimaryColumn({ name: 'product_id', type: 'int', unsigned: true })
  productId!: number;

  @PrimaryColumn({ name: 'appointment_type_id', type: 'int', unsigned: true })
  appointmentTypeId!: number;

  @Column({ type: 'int', unsigned: true })
  count!: number;
}
