import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CatalogRow } from '../catalog';
import { LockVersionColumn } from '../../common/database/row-locks';

export const DISCOUNT_TYPES = ['percentage', 'price'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/** A discount definition; certificates of kind coupon are issued from it. */
@Entity('coupons')
@Index('idx_coupons_account', ['accountId', 'id'])
@Index('uq_coupons_account_code', ['accountId', 'code'], { unique: true })
export class Coupon extends CatalogRow {
  /** Written by a lock (lockRows), never read: docs/architecture.md, "Locks are writes". */
  @LockVersionColumn()
  readonly lockVersion?: number;

  /** The code clients type, upper-cased; null: the coupon is handed out as issued certificates. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  code!: string | null;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ name: 'discount_type', type: 'varchar', length: 16 })
  discountType!: DiscountType;

  /** Hundredths: cents for `price`, hundredths of a percent for `percentage` (1250 = 12.5%). */
  @Column({ name: 'discount_amount', type: 'int', unsigned: true })
  discountAmount!: number;

  /** Last day it can be used (`YYYY-MM-DD`, the account's zone); null = never expires. */
  /* utc: read back as written, whatever the server's zone (a DATE has none). */
  @Column({ type: 'date', nullable: true, utc: true })
  expiration!: string | null;
}

/** The appointment types a coupon applies to; none = every type. */
@Entity('coupon_appointment_types')
@Index('idx_coupon_appointment_types_type', ['appointmentTypeId'])
export class CouponAppointmentType {
  @PrimaryColumn({ name: 'coupon_id', type: 'int', unsigned: true })
  couponId!: number;

  @PrimaryColumn({ name: 'appointment_type_id', type: 'int', unsigned: true })
  appointmentTypeId!: number;
}
