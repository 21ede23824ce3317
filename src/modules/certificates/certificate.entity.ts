import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { TenantEntity } from '../../common/database/tenant-entity';
import { LockVersionColumn } from '../../common/database/row-locks';

export const CERTIFICATE_KINDS = ['package', 'coupon', 'gift'] as const;
export type CertificateKind = (typeof CERTIFICATE_KINDS)[number];

/** A code presented when booking: a package (uses per type), a coupon (a discount) or a gift. */
@Entity('certificates')
@Index('uq_certificates_account_code', ['accountId', 'code'], { unique: true })
@Index('idx_certificates_account', ['accountId', 'id'])
export class Certificate extends TenantEntity {
  /** Written by a lock (lockRows), never read: docs/architecture.md, "Locks are writes". */
  @LockVersionColumn()
  readonly lockVersion?: number;

  /** Upper-cased; unique in the account (deleted certificates keep theirs). */
  @Column({ type: 'varchar', length: 64 })
  code!: string;

  @Column({ type: 'varchar', length: 8 })
  kind!: CertificateKind;

  @Column({ name: 'product_id', type: 'int', unsigned: true, nullable: true })
  productId!: number | null;

  @Column({ name: 'coupon_id', type: 'int', unsigned: true, nullable: true })
  couponId!: number | null;

  @Column({ name: 'order_id', type: 'int', unsigned: true, nullable: true })
  orderId!: number | null;

  /** The product's or coupon's name when it was issued. */
  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** Lower-cased; when set, only bookings with this e-mail may use the certificate. */
  @Column({ type: 'varchar', length: 254, nullable: true })
  email!: string | null;

  /** What is left of a gift certificate, in cents; null for the other kinds. */
  @Column({ name: 'remaining_value_cents', type: 'int', unsigned: true, nullable: true })
  remainingValueCents!: number | null;

  /** Last day it can be used (`YYYY-MM-DD`, the account's zone); null = never expires. */
  @Column({ type: 'date', nullable: true, utc: true })
  expiration!: string | null;

  @Column({ name: 'deleted_at', type: 'datetime', precision: 3, nullable: true })
  deletedAt!: Date | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;
}

/** Uses left of a package, per appointment type. */
@Entity('certificate_uses')
export class CertificateUses {
  @PrimaryColumn({ name: 'certificate_id', type: 'int', unsigned: true })
  certificateId!: number;

  @PrimaryColumn({ name: 'appointment_type_id', type: 'int', unsigned: true })
  appointmentTypeId!: number;

  @Column({ type: 'int', unsigned: true })
  remaining!: number;
}
