import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('appointment_field_values')
export class AppointmentFieldValue {
  @PrimaryColumn({ name: 'appointment_id', type: 'int', unsigned: true })
  appointmentId!: number;

  @PrimaryColumn({ name: 'field_id', type: 'int', unsigned: true })
  fieldId!: number;

  @Column({ name: 'form_id', type: 'int', unsigned: true })
  formId!: number;

  @Column({ type: 'text' })
  value!: string;
}
