import { formatInZone } from '../../common/time/datetimes';
import type { AppointmentType } from './appointment-type.entity';
import type { Calendar } from './calendar.entity';
import type { ClassSession } from './class-session.entity';
import {
  datetime,
  id,
  int,
  text,
  viewSchema,
  type ViewType,
} from '../../common/openapi/view-schema';

/** A session as its owner manages it (`/availability/classes` shows clients its free seats). */
export type ClassSessionView = ViewType<typeof CLASS_SESSION_VIEW>;

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

export const CLASS_SESSION_VIEW = viewSchema('ClassSessionView', {
  id: id(31),
  appointmentTypeID: id(12),
  calendarID: id(7),
  name: text('Yoga'),
  time: datetime('2030-06-03T18:00:00-0400', "The start, in the calendar's zone."),
  calendar: text('Alex', "The calendar's name."),
  duration: int(60, 'Minutes.'),
  slots: int(10, 'Seats.'),
});
