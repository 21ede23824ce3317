import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { NoAvailableCalendarError, NotAvailableError } from './availability.errors';
import { busyWindow } from './busy-time';
import { CalendarLocks } from './calendar-locks.repository';
import { assignedOrder } from './calendar-turns.repository';
import { type Placement, adminPlacement, assertInAdvanceWindow, freeCalendar } from './placement';
import { type SlotContext, hostFirst, isOffered } from './slot-context';

/** A client's booking or hold as its checks before the transaction settled it. */
export interface ClientSlot {
  start: number;
  /** The datetime as sent, as messages quote it. */
  datetimeText: string;
  /** Whether the request named the calendar (else any of the type's may take it). */
  calendarNamed: boolean;
  /** The client's own live hold, booked with its token: its calendar takes the booking. */
  hold?: { id: number; calendarId: number };
}

/**
 * Where a booking or a hold goes, decided under the calendars' locks so that the answer holds until
 * the commit. A client's booking and a hold are one check (so two holds, or a hold and a booking,
 * never take one slot): the calendars locked in ascending id order with their busy time read (live
 * holds included), the advance window, then the first calendar free at the time and within the
 * booking limits, in the order the type's assignment gives them (calendar-assignment.ts).
 */
@Injectable()
export class SlotPlacement {
  constructor(private readonly locks: CalendarLocks) {}

  /**
   * A client's booking or hold: the advance window's codes, then `not_available` (a named calendar)
   * or `no_available_calendar` when no calendar can take it (after `onConflict`).
   */
  async client(
    tx: EntityManager,
    ctx: SlotContext,
    slot: ClientSlot,
    onConflict: () => void = () => undefined,
  ): Promise<Placement> {
    const { hold } = slot;
    const calendars = hold ? heldCalendars(ctx, hold.calendarId) : ctx.calendars;
    const offered = isOffered(ctx);
    const readsBusy = offered && ctx.type.kind === 'service';
    const window = readsBusy ? busyWindow(ctx.rules, slot.start) : undefined;
    const ids = calendars.map((c) => c.id);
    const busy = await this.locks.lock(tx, ids, window, {
      ignoreHoldId: hold?.id,
      busyKinds: ctx.calendarsBusyKinds,
      resources: ctx,
    });
    assertInAdvanceWindow(ctx.rules, slot.start, slot.datetimeText, Date.now());
    // A booking or hold that names no calendar: the type's assignment orders them (team scheduling).
    const assigned =
      slot.calendarNamed || hold || ctx.type.collective
        ? { calendars }
        : await assignedOrder(tx, ctx, slot.start);
    const free = offered
      ? await freeCalendar(tx, { ...ctx, calendars: assigned.calendars }, slot.start, busy, {
          holdId: hold?.id,
        })
      : null;
    if (free) return { ...free, turns: assigned.turns };
    onConflict();
    if (!slot.calendarNamed) throw new NoAvailableCalendarError();
    throw new NotAvailableError('not_available', slot.datetimeText);
  }

  /** An admin's booking: on the calendar named, locked, whatever its time holds. */
  async admin(tx: EntityManager, ctx: SlotContext, start: number): Promise<Placement> {
    await this.locks.lock(
      tx,
      ctx.calendars.map((c) => c.id),
    );
    return adminPlacement(tx, ctx, start);
  }
}

/**
 * The calendars a booking with a hold may take: the hold's; a collective type's all, the hold's
 * (its host) first (the hold kept them all; its own time is left out of their busy time).
 */
function heldCalendars(ctx: SlotContext, calendarId: number): SlotContext['calendars'] {
  return ctx.type.collective
    ? hostFirst(ctx.calendars, calendarId)
    : ctx.calendars.filter((c) => c.id === calendarId);
}
