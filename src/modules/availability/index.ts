/*
 * What other modules use of availability (booking and the changes of an appointment, above all, and
 * the Appointment entity, which lives here: see docs/architecture.md); they import it from here, not
 * from the module's files.
 */
export { InvalidDatetimeError, NotAvailableError } from './availability.errors';
export { Appointment } from './appointment.entity';
export { AvailabilityModule } from './availability.module';
export { AvailableDatesQuery, AvailableTimesQuery } from './availability.queries';
export { MAX_APPOINTMENT_MINUTES, MAX_EXTERNAL_SPAN_MINUTES, busyWindow } from './busy-time';
export { readBusyTime, readSeatsTaken } from './busy-time.repository';
export { withinLimits } from './booking-limits';
export { CalendarLocks } from './calendar-locks.repository';
// For the writers of busy time above availability (holds, calendar sync): see markBusyKind.
export { BusyKind, markBusyKind } from '../catalog';
export { type HoldOrigin, SlotHold } from './slot-hold.entity';
export { pageHoldDayShare, withinDayShare } from './page-hold-share';
export { consumeHold, heldSlot, newHoldToken } from './slot-holds';
export { SlotPlacement } from './slot-placement';
export { localDateBounds } from './query-spans';
export { type Placement, adminPlacement, assertInAdvanceWindow } from './placement';
export { type SlotContext, type SlotRequest, type SlotType, scheduleOf } from './slot-context';
export { resolveSlotContext, sessionAt } from './slot-context.repository';
export { type SlotRules, checkSession, checkStart } from './slot-engine';
export { calendarIdOf, requireDatetime, slotRequestOf } from './slot-request';
export type { Span } from './working-time';
