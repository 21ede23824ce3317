import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import type { DomainEvent } from '../../common/outbox/domain-event';
import { MINUTE } from '../../common/time/durations';
import type { Account } from '../accounts';
import {
  type Appointment,
  type CalendarTurn,
  NotAvailableError,
  type Placement,
  type SlotContext,
  SlotContexts,
  adminPlacement,
  assertInAdvanceWindow,
  assignedOrder,
  busyWindow,
  calendarIdOf,
  freeCalendar,
  readLockedBusy,
  recordTurn,
  replaceMembers,
  requireDatetime,
} from '../availability';
import { AppointmentRescheduledEvent, eventPayload } from './appointment-events';
import { AlreadyCanceledError, assertClientMayChange } from './appointment.errors';
import type { AppointmentView } from './appointment.view';
import { type ChangeMode, AppointmentChanges } from './appointment-changes';
import { AppointmentRepository } from './appointment.repository';
import { appointmentTimes } from './booked-appointment';
import { type BookingTime, readBookingTime, startOf } from './booking-checks';
import { RescheduleAppointmentCommand } from './reschedule-appointment.command';

/** What the checks before the transaction settled. */
interface Checked extends BookingTime {
  /**
   * The type and the calendar it moves to (or, when it may be reassigned, the type's calendars);
   * `rules.duration` is the appointment's own.
   */
  ctx: SlotContext;
  start: number;
  /**
   * A client's move without `calendarID` of a type that assigns (round-robin, balanced): it stays
   * on its calendar if that one is free at the new time, else goes where a booking would.
   */
  reassigns: boolean;
}

/**
 * Moves an appointment as booking places one: checked with booking's codes, then one transaction
 * locks the old and the new calendar and the row and checks the new time on what is committed (the
 * appointment itself left out, unless admin); same length, busy span with the type's padding.
 */
@CommandHandler(RescheduleAppointmentCommand)
export class RescheduleAppointmentHandler implements ICommandHandler<RescheduleAppointmentCommand> {
  constructor(
    private readonly changes: AppointmentChanges,
    private readonly appointments: AppointmentRepository,
    private readonly contexts: SlotContexts,
  ) {}

  async execute(command: RescheduleAppointmentCommand): Promise<AppointmentView> {
    const { account, appointmentId, request, mode } = command;
    // The account's settings are the principal's, as for booking (see BookAppointmentHandler).
    const current = await this.appointments.find(account.id, appointmentId);
    if (current.canceled) throw new AlreadyCanceledError(current.id);
    const checked = await this.check(account, current, request, mode.admin);
    const calendarIds = [current.calendarId, ...checked.ctx.calendars.map((c) => c.id)];
    return this.changes.change(account.id, appointmentId, calendarIds, (tx, appointment) =>
      this.move(tx, appointment, checked, mode, account.clientChangeMinHours),
    );
  }

  /** Everything that needs no lock, in booking's order of errors. */
  private async check(
    account: Account,
    current: Appointment,
    r: RescheduleAppointmentCommand['request'],
    admin: boolean,
  ): Promise<Checked> {
    requireDatetime(r.datetime);
    const named = calendarIdOf(r.calendarID);
    const request = { appointmentTypeID: current.appointmentTypeId };
    let ctx = await this.contexts.resolve(account, {
      ...request,
      calendarID: named ?? current.calendarId,
    });
    const time = readBookingTime(r, ctx.calendars[0].timezone, admin);
    const reassigns =
      !admin && named === undefined && ctx.type.assignment !== 'first' && !ctx.type.collective;
    if (reassigns) ctx = await this.contexts.resolve(account, request);
    const start = startOf(time);
    // The length it was booked with (its addons' included), whatever the catalog says now.
    const duration = Math.round((current.endsAt.getTime() - current.startsAt.getTime()) / MINUTE);
    return { ...time, start, reassigns, ctx: { ...ctx, rules: { ...ctx.rules, duration } } };
  }

  /** On the row as locked, its calendars locked too. */
  private async move(
    tx: EntityManager,
    appointment: Appointment,
    checked: Checked,
    mode: ChangeMode,
    clientChangeMinHours: number,
  ): Promise<DomainEvent[]> {
    if (appointment.canceled) throw new AlreadyCanceledError(appointment.id);
    const { ctx, start, timezone } = checked;
    const now = Date.now();
    const { calendar, classId, turns, members } = mode.admin
      ? await adminPlacement(tx, ctx, start)
      : await this.checkClientMove(tx, appointment, checked, now, clientChangeMinHours);
    // Reassigned: the calendar it moved onto took a turn (the one it left keeps its own).
    if (calendar.id !== appointment.calendarId)
      await recordTurn(tx, ctx.type, calendar.id, 1, turns);
    const hadMembers = appointment.memberCalendarIds !== null;
    Object.assign(appointment, {
      calendarId: calendar.id,
      classId,
      ...appointmentTimes(start, ctx.rules),
      // A collective one moves with every calendar of its type (all checked free, for a client).
      memberCalendarIds: members?.map((m) => m.id) ?? null,
    });
    if (hadMembers || members)
      await replaceMembers(tx, appointment, appointment.memberCalendarIds ?? []);
    if (timezone !== undefined) appointment.timezone = timezone;
    appointment.sequence += 1;
    appointment.updatedAt = new Date(now);
    await this.appointments.save(appointment, tx);
    const payload = eventPayload(appointment, mode.noEmail);
    return [new AppointmentRescheduledEvent(appointment.accountId, payload)];
  }

  /** A client's move to a time they could book (the appointment left out): where it goes. */
  private async checkClientMove(
    tx: EntityManager,
    appointment: Appointment,
    checked: Checked,
    now: number,
    clientChangeMinHours: number,
  ): Promise<Placement> {
    const { ctx, start, datetimeText } = checked;
    const { rules, type } = ctx;
    assertClientMayChange('reschedule', appointment, clientChangeMinHours, now);
    // The advance window's codes first: freeCalendar, at the same `now`, then refuses only the time.
    assertInAdvanceWindow(rules, start, datetimeText, now);
    if (!type.active) throw new NotAvailableError('not_available', datetimeText);
    const ignore = [appointment.id];
    const request = { ...busyWindow(rules, start), ignoreAppointmentIds: ignore };
    const ids = ctx.calendars.map((c) => c.id);
    const busy = type.kind === 'class' ? undefined : await readLockedBusy(tx, ctx, ids, request);
    const { calendars, turns } = checked.reassigns
      ? await stayingFirst(tx, ctx, appointment.calendarId, start)
      : { calendars: ctx.calendars, turns: undefined };
    const placed = await freeCalendar(
      tx,
      { ...ctx, calendars },
      start,
      busy,
      { appointmentId: appointment.id },
      now,
    );
    if (!placed) throw new NotAvailableError('not_available', datetimeText);
    return { ...placed, turns };
  }
}

/** A reassignable move's calendars: its own first (if still the type's), then the assignment's. */
async function stayingFirst(
  tx: EntityManager,
  ctx: SlotContext,
  calendarId: number,
  start: number,
): Promise<{ calendars: SlotContext['calendars']; turns?: CalendarTurn[] }> {
  const own = ctx.calendars.filter((c) => c.id === calendarId);
  const others = ctx.calendars.filter((c) => c.id !== calendarId);
  const assigned = await assignedOrder(tx, { type: ctx.type, calendars: others }, start);
  return { calendars: [...own, ...assigned.calendars], turns: assigned.turns };
}
