import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/*
 * A collective appointment's or hold's other calendars (docs/team-scheduling.md): one row each,
 * with the owner's busy span, read as busy time of that calendar (busy-time.repository.ts) while
 * the owner is live: an appointment not canceled, a hold not expired. Written with the owner, under
 * every calendar's lock; moved with it.
 */

abstract class CalendarMember {
  @PrimaryColumn({ name: 'account_id', type: 'int', unsigned: true })
  accountId!: number;

  @PrimaryColumn({ name: 'calendar_id', type: 'int', unsigned: true })
  calendarId!: number;

  @Column({ name: 'busy_from', type: 'datetime', precision: 3 })
  busyFrom!: Date;

  @Column({ name: 'busy_until', type: 'datetime', precision: 3 })
  busyUntil!: Date;
}

@Entity('appointment_members')
@Index('idx_appointment_members_calendar_busy', [
  'calendarId',
  'busyFrom',
  'busyUntil',
  'appointmentId',
])
export class AppointmentMember extends CalendarMember {
  @PrimaryColumn({ name: 'appointment_id', type: 'int', unsigned: true })
  appointmentId!: number;
}

@Entity('slot_hold_members')
@Index('idx_slot_hold_members_calendar_busy', ['calendarId', 'busyFrom', 'busyUntil', 'holdId'])
export class SlotHoldMember extends CalendarMember {
  @PrimaryColumn({ name: 'hold_id', type: 'int', unsigned: true })
  holdId!: number;
}
