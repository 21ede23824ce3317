/*
 * What other modules use of the catalog; they import it from here, not from the module's files.
 */
export { Addon } from './addon.entity';
export { AppointmentType } from './appointment-type.entity';
export { Calendar } from './calendar.entity';
export {
  InvalidAddonError,
  InvalidAppointmentTypeError,
  InvalidCalendarError,
} from './catalog.errors';
export { ClassSession } from './class-session.entity';
export { Label } from './label.entity';
export { type DateOverrides, type WeeklyHours, workingIntervalsOn } from './working-hours';
