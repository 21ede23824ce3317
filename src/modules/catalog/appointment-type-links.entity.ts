import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/*
 * What an appointment type is linked to, without foreign keys (as every catalog table): catalog
 * rows are never removed while referenced, and InnoDB's checks would share-lock the calendar rows
 * that booking locks FOR UPDATE.
 */

@Entity('appointment_type_calendars')
@Index('idx_appointment_type_calendars_calendar', ['calendarId'])
export class AppointmentTypeCalendar {
  @PrimaryColumn({ name: 'appointment_type_id', type: 'int', unsigned: true })
  appointmentTypeId!: number;

  @PrimaryColumn({ name: 'calendar_id', type: 'int', unsigned: true })
  calendarId!: number;
}

@Entity('appointment_type_addons')
@Index('idx_appointment_type_addons_addon', ['addonId'])
export class AppointmentTypeAddon {
  @PrimaryColumn({ name: 'appointment_type_id', type: 'int', unsigned: true })
  appointmentTypeId!: number;

  @PrimaryColumn({ name: 'addon_id', type: 'int', unsigned: true })
  addonId!: number;
}

@Entity('appointment_type_forms')
@Index('idx_appointment_type_forms_form', ['formId'])
export class AppointmentTypeForm {
  @PrimaryColumn({ name: 'appointment_type_id', type: 'int', unsigned: true })
  appointmentTypeId!: number;

  @PrimaryColumn({ name: 'form_id', type: 'int', unsigned: true })
  formId!: number;

  /** Keeps the forms in the order the owner listed them. */
  @Column({ type: 'smallint', unsigned: true, default: 0 })
  position!: number;
}

@Entity('appointment_type_resources')
@Index('idx_appointment_type_resources_resource', ['resourceId'])
export class AppointmentTypeResource {
  @PrimaryColumn({ name: 'appointment_type_id', type: 'int', unsigned: true })
  appointmentTypeId!: number;

  @PrimaryColumn({ name: 'resource_id', type: 'int', unsigned: true })
  resourceId!: number;
}
