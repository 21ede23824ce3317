import type { EntityManager } from 'typeorm';
import {
  type SlotContext,
  type SlotRequest,
  StaleSlotContextError,
  cachedSlotContext,
  forgetSlotContext,
  resolveSlotContext,
} from '../availability';
import type { Booking } from './book-appointment.request';

/**
 * Runs a booking's `checks` with its slot context. A client's booking of a named calendar (no
 * addons, no hold) takes it from the process's cache, which the calendar's lock statement checks
 * against what is committed (see slot-context-cache.ts); `fresh` reads it (after the cache was
 * found stale), as every other booking does. A check that fails on a cached context throws
 * StaleSlotContextError: the booking is made again on a fresh read, so that it answers what is
 * committed, never what a stale context says.
 */
export async function withBookingContext<T>(
  manager: EntityManager,
  { account, input, mode }: Booking,
  slot: SlotRequest,
  fresh: boolean,
  checks: (ctx: SlotContext) => Promise<T>,
): Promise<T> {
  const cacheable =
    !mode.admin &&
    slot.calendarID !== undefined &&
    (slot.addonIDs ?? []).length === 0 &&
    input.holdToken === undefined;
  if (fresh && cacheable) forgetSlotContext(account, slot);
  const ctx =
    cacheable && !fresh
      ? await cachedSlotContext(manager, account, slot)
      : await resolveSlotContext(manager, account, slot);
  try {
    return await checks(ctx);
  } catch (err) {
    throw ctx.stamp === undefined ? err : new StaleSlotContextError();
  }
}
