import { formatInZone } from '../../common/time/datetimes';
import type { AppointmentType } from './appointment-type.entity';
import type { Calendar } from './calendar.entity';
import type { ClassSession } from './class-session.entity';

/**
 * A session as its owner manages it. `/availability/classes` shows the same session to clients with
 * its free seats (`slotsAvailable`), which depend on bookings.
 */
export interface ClassSessionView {
  id: number;
  appointmentTypeID: number;
  calendarID: number;
  name: string;
  /** Start, in the calendar's zone: `2026-03-03T18:00:00-0500`. */
  time: string;
  /** The calendar's name. */
  calendar: string;
  /** Minutes (the type's duration). */
  duration: number;
  /** Seats (the type's class size). */
  slots: number;
}

export function toClassSessionView(
  session: ClassSession,
  type: AppointmentType,
  calendar: Calendar,
): ClassSessionView {
  return {
    id: session.id,
    appointmentTypeID: session.appointmentTypeId,
    calendarID: session.calendarId,
    name: session.name,
    time: formatInZone(session.startsAt, calendar.timezone),
    calendar: calendar.name,
    duration: type.duration,
    slots: type.classSize ?? 0,
  };
}
