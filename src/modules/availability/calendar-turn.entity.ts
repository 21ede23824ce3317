import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A calendar's place in a `round-robin` type's rotation (calendar-assignment.ts): the virtual times
 * its last turn started and finished at, and when it was last assigned one. Written by every
 * appointment of the type, under the calendar's lock (calendar-turns.repository.ts).
 */
@Entity('calendar_turns')
export class CalendarTurnRow {
  @PrimaryColumn({ name: 'account_id', type: 'int', unsigned: true })
  accountId!: number;

  @PrimaryColumn({ name: 'appointment_type_id', type: 'int', unsigned: true })
  appointmentTypeId!: number;

  @PrimaryColumn({ name: 'calendar_id', type: 'int', unsigned: true })
  calendarId!: number;

  @Column({ name: 'served_from', type: 'double' })
  servedFrom!: number;

  @Column({ name: 'served_until', type: 'double' })
  servedUntil!: number;

  @Column({ name: 'last_assigned_at', type: 'datetime', precision: 3 })
  lastAssignedAt!: Date;
}
