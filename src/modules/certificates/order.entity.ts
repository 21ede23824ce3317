import { Column, Entity, Index } from 'typeorm';
import { TenantEntity } from '../../common/database/tenant-entity';
import { LockVersionColumn } from '../../common/database/row-locks';

export const ORDER_STATUSES = ['unpaid', 'paid', 'delivered'] as const;
type OrderStatus = (typeof ORDER_STATUSES)[number];

/** A purchase of a product; completing it issues the product's certificate. */
@Entity('orders')
@Index('idx_orders_account', ['accountId', 'id'])
export class Order extends TenantEntity {
  /** Written by a lock (lockRows), never read: docs/architecture.md, "Locks are writes". */
  @LockVersionColumn()
  readonly lockVersion?: number;

  @Column({ name: 'product_id', type: 'int', unsigned: true })
  productId!: number;

  /** The product's name when ordered. */
  @Column({ type: 'varchar', length: 255 })
  title!: string;

  /** The product's price when ordered, in cents. */
  @Column({ name: 'total_cents', type: 'int', unsigned: true })
  totalCents!: number;

  @Column({ type: 'varchar', length: 16 })
  status!: OrderStatus;

  @Column({ name: 'first_name', type: 'varchar', length: 255 })
  firstName!: string;

  @Column({ name: 'last_name', type: 'varchar', length: 255 })
  lastName!: string;

  @Column({ type: 'varchar', length: 254 })
  email!: string;

  @Column({ type: 'varchar', length: 64, default: '' })
  phone!: string;

  @Column({ type: 'text' })
  notes!: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'completed_at', type: 'datetime', precision: 3, nullable: true })
  completedAt!: Date | null;
}
