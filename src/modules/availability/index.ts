/* What other modules use of availability: they import it from here, not from the module's files. */
export {
  InvalidDatetimeError,
  NoAvailableCalendarError,
  NotAvailableError,
} from './availability.errors';
export { Appointment } from './appointment.entity';
export { AvailabilityModule } from './availability.module';
export {
  AvailableDatesQuery,
  AvailableDatesWithTimesQuery,
  AvailableTimesQuery,
} from './availability.queries';
export {
  type DatesWithTimes,
  collectiveCalendarIds,
  collectiveCalendarsOf,
} from './availability.views';
export { MAX_APPOINTMENT_MINUTES, MAX_EXTERNAL_SPAN_MINUTES, busyWindow } from './busy-time';
export { readLockedBusy } from './resource-usage.repository';
export { CalendarLocks } from './calendar-locks.repository';
// For the writers of busy time above availability (holds, calendar sync): see markBusyKind.
export { BusyKind, markBusyKind } from '../catalog';
export { type HoldOrigin, SlotHold } from './slot-hold.entity';
export { pageHoldDayShare, withinDayShare } from './page-hold-share';
export { consumeHold, newHoldToken } from './slot-holds';
export { SlotPlacement } from './slot-placement';
export { localDateBounds } from './query-spans';
export { type Placement, adminPlacement, assertInAdvanceWindow, freeCalendar } from './placement';
export { assignedOrder, recordTurn } from './calendar-turns.repository';
export {
  deletePastHoldMembers,
  insertMembers,
  replaceMembers,
} from './calendar-members.repository';
export type { CalendarTurn } from './calendar-assignment';
export { type SlotContext, type SlotRequest, type SlotType, hostFirst } from './slot-context';
export { SlotContexts, resolveSlotContext } from './slot-context.repository';
export type { SlotRules } from './slot-engine';
export { calendarIdOf, requireDatetime, slotRequestOf } from './slot-request';
export { type Span, mergeSpans } from './working-time';
