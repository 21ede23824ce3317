import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** An extra a client adds to an appointment: more time, more price. */
@Entity('addons')
@Index('idx_addons_account', ['accountId', 'id'])
export class Addon {
  @PrimaryGeneratedColumn({ type: 'int', unsigned: true })
  id!: number;

  @Column({ name: 'account_id', type: 'int', unsigned: true })
  accountId!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** Minutes added to the appointment. */
  @Column({ type: 'smallint', unsigned: true, default: 0 })
  duration!: number;

  @Column({ name: 'price_cents', type: 'int', unsigned: true, default: 0 })
  priceCents!: number;

  @Column({ type: 'boolean', default: false })
  private!: boolean;

  @Column({ name: 'deleted_at', type: 'datetime', precision: 3, nullable: true })
  deletedAt!: Date | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}
