/*
 * What other modules use of availability (booking and the changes of an appointment, above all, and
 * the Appointment entity, which lives here: see docs/architecture.md); they import it from here, not
 * from the module's files.
 */
export { InvalidDatetimeError, NotAvailableError } from './availability.errors';
export { Appointment } from './appointment.entity';
export { AvailabilityModule } from './availability.module';
export { AvailabilityService } from './availability.service';
export {
  MAX_APPOINTMENT_MINUTES,
  MAX_EXTERNAL_SPAN_MINUTES,
  busyWindow,
  readBusyTime,
  readSeatsTaken,
} from './busy-time';
export { withinLimits } from './booking-limits';
export { CalendarLocks } from './calendar-locks';
// For the writers of busy time above availability (holds, calendar sync): see markBusyKind.
export { BusyKind, markBusyKind } from '../catalog';
export { type HoldOrigin, SlotHold } from './slot-hold.entity';
export { pageHoldDayShare, withinDayShare } from './page-hold-share';
export { consumeHold, heldSlot, newHoldToken } from './slot-holds';
export { SlotPlacement } from './slot-placement';
export { localDateBounds } from './query-spans';
export { type Placement, adminPlacement, assertInAdvanceWindow, sessionAt } from './placement';
export {
  type SlotContext,
  type SlotRequest,
  type SlotType,
  resolveSlotContext,
  scheduleOf,
} from './slot-context';
export { type SlotRules, checkSession, checkStart } from './slot-engine';
export { calendarIdOf, requireDatetime, slotRequestOf } from './slot-request';
export type { Span } from './working-time';
