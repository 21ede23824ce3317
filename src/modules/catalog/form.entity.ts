import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An intake form: questions asked when booking the appointment types it is linked to. In the catalog,
 * not in forms, because appointment types check and list the forms they link to and the catalog sits
 * below forms; the form's fields, the /forms routes and the rules of answers are the forms module's.
 */
@Entity('forms')
@Index('idx_forms_account', ['accountId', 'id'])
export class Form {
  @PrimaryGeneratedColumn({ type: 'int', unsigned: true })
  id!: number;

  @Column({ name: 'account_id', type: 'int', unsigned: true })
  accountId!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text' })
  description!: string;

  /** Shown to admins only: clients neither see nor answer its fields. */
  @Column({ type: 'boolean', default: false })
  hidden!: boolean;

  @Column({ name: 'deleted_at', type: 'datetime', precision: 3, nullable: true })
  deletedAt!: Date | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}
