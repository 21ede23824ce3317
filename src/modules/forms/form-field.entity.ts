import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export const FIELD_TYPES = [
  'textbox',
  'textarea',
  'dropdown',
  'checkbox',
  'checkboxlist',
  'yesno',
  'file',
  'address',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/**
 * A question of a form (the catalog's Form). Clients send values for its id, which an update of the
 * form keeps; a field removed from the form is soft-deleted so stored answers keep their question.
 */
@Entity('form_fields')
@Index('idx_form_fields_form', ['formId', 'position'])
export class FormField {
  @PrimaryGeneratedColumn({ type: 'int', unsigned: true })
  id!: number;

  @Column({ name: 'form_id', type: 'int', unsigned: true })
  formId!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 16 })
  type!: FieldType;

  /** The choices of a dropdown or checkboxlist; null for other types. */
  @Column({ type: 'json', nullable: true })
  options!: string[] | null;

  @Column({ type: 'boolean', default: false })
  required!: boolean;

  /** Rows of a textarea; null for other types. */
  @Column({ name: 'line_count', type: 'tinyint', unsigned: true, nullable: true })
  lines!: number | null;

  @Column({ type: 'smallint', unsigned: true })
  position!: number;

  @Column({ name: 'deleted_at', type: 'datetime', precision: 3, nullable: true })
  deletedAt!: Date | null;
}
