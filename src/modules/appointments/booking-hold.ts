import type { EntityManager } from 'typeorm';
import { type SlotContext, heldSlot } from '../availability';
import type { BookingInput } from './book-appointment.requests';
import type { BookingTime } from './booking-checks';

/**
 * The hold a booking takes with `holdToken`, checked after the booking's other checks that need no
 * lock (so a booking's own faults come first, in the contract's order): the account's live hold of
 * this type and time, on the calendar named if one is. Undefined without a token.
 */
export function bookingHold(
  manager: EntityManager,
  accountId: number,
  input: BookingInput,
  { ctx, calendarNamed }: { ctx: SlotContext; calendarNamed: boolean },
  time: BookingTime,
  start: number,
): Promise<{ id: number; calendarId: number } | undefined> {
  if (input.holdToken === undefined) return Promise.resolve(undefined);
  return heldSlot(manager, accountId, input.holdToken, {
    typeId: ctx.type.id,
    start,
    calendarId: calendarNamed ? ctx.calendars[0].id : undefined,
    datetimeText: time.datetimeText,
  });
}
