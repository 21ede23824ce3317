import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A tag an owner puts on appointments ("Checked in", "Paid in cash"). */
@Entity('labels')
@Index('idx_labels_account', ['accountId', 'id'])
export class Label {
  @PrimaryGeneratedColumn({ type: 'int', unsigned: true })
  id!: number;

  @Column({ name: 'account_id', type: 'int', unsigned: true })
  accountId!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 32 })
  color!: string;

  @Column({ name: 'deleted_at', type: 'datetime', precision: 3, nullable: true })
  deletedAt!: Date | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}
