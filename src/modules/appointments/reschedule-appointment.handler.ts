import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import type { DomainEvent } from '../../common/outbox/domain-event';
import { MINUTE } from '../../common/time/durations';
import type { Account } from '../accounts';
import {
  type Appointment,
  NotAvailableError,
  type SlotContext,
  adminPlacement,
  assertInAdvanceWindow,
  busyWindow,
  calendarIdOf,
  checkSession,
  checkStart,
  readBusyTime,
  readSeatsTaken,
  requireDatetime,
  resolveSlotContext,
  scheduleOf,
  sessionAt,
  withinLimits,
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
  /** The type and the one calendar it moves to; `rules.duration` is the appointment's own. */
  ctx: SlotContext;
  start: number;
}

/**
 * Moves an appointment as booking places one: the datetime, calendar and zone are checked with
 * booking's codes; then one READ COMMITTED transaction locks the old and the new calendar (ascending
 * id) and the row, checks the new time with the slot engine on what is committed, ignoring the
 * appointment itself (unless admin), moves it (same length, addons included; busy span with the
 * type's padding) and records `rescheduled` and `changed`.
 */
@CommandHandler(RescheduleAppointmentCommand)
export class RescheduleAppointmentHandler implements ICommandHandler<RescheduleAppointmentCommand> {
  constructor(
    private readonly changes: AppointmentChanges,
    private readonly appointments: AppointmentRepository,
  ) {}

  async execute({
    account,
    appointmentId,
    request,
    mode,
  }: RescheduleAppointmentCommand): Promise<AppointmentView> {
    // The account's settings are the principal's, as for booking (see BookAppointmentHandler).
    const current = await this.appointments.find(account.id, appointmentId);
    if (current.canceled) throw new AlreadyCanceledError(current.id);
    const checked = await this.check(account, current, request, mode.admin);
    const calendarIds = [current.calendarId, checked.ctx.calendars[0].id];
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
    const ctx = await resolveSlotContext(this.appointments.reader, account, {
      appointmentTypeID: current.appointmentTypeId,
      calendarID: calendarIdOf(r.calendarID) ?? current.calendarId,
    });
    const time = readBookingTime(r, ctx.calendars[0].timezone, admin);
    const start = startOf(time);
    // The length it was booked with (its addons' included), whatever the catalog says now.
    const duration = Math.round((current.endsAt.getTime() - current.startsAt.getTime()) / MINUTE);
    return { ...time, start, ctx: { ...ctx, rules: { ...ctx.rules, duration } } };
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
    const calendar = ctx.calendars[0];
    const now = Date.now();
    const classId = mode.admin
      ? (await adminPlacement(tx, ctx, start)).classId
      : await this.checkClientMove(tx, appointment, checked, now, clientChangeMinHours);
    Object.assign(appointment, {
      calendarId: calendar.id,
      classId,
      ...appointmentTimes(start, ctx.rules),
    });
    if (timezone !== undefined) appointment.timezone = timezone;
    appointment.sequence += 1;
    appointment.updatedAt = new Date(now);
    await this.appointments.save(appointment, tx);
    return [
      new AppointmentRescheduledEvent(
        appointment.accountId,
        eventPayload(appointment, mode.noEmail),
      ),
    ];
  }

  /**
   * A client moves an appointment that has not started to a time it could book, the appointment
   * itself left out of the busy time and the seats taken. The class session it moves to, if any.
   */
  private async checkClientMove(
    tx: EntityManager,
    appointment: Appointment,
    checked: Checked,
    now: number,
    clientChangeMinHours: number,
  ): Promise<number | null> {
    const { ctx, start, datetimeText } = checked;
    const { rules, type } = ctx;
    const calendar = ctx.calendars[0];
    assertClientMayChange('reschedule', appointment, clientChangeMinHours, now);
    assertInAdvanceWindow(rules, start, datetimeText, now);
    if (!type.active) throw new NotAvailableError('not_available', datetimeText);
    if (type.kind === 'class') {
      const session = await sessionAt(tx, type.id, calendar.id, start);
      const taken = session
        ? ((await readSeatsTaken(tx, [session.id], [appointment.id])).get(session.id) ?? 0)
        : 0;
      const seats = type.classSize ?? 0;
      if (!session || checkSession({ start, seats, taken }, rules, now) !== null)
        throw new NotAvailableError('not_available', datetimeText);
      await this.assertWithinLimits(tx, appointment, checked);
      return session.id;
    }
    const busy = await readBusyTime(tx, [calendar.id], busyWindow(rules, start), [appointment.id]);
    const reason = checkStart(scheduleOf(calendar, busy), rules, start, now);
    if (reason !== null) throw new NotAvailableError(reason, datetimeText);
    await this.assertWithinLimits(tx, appointment, checked);
    return null;
  }

  /** The booking limits of the day and week it moves to, the appointment itself not counted. */
  private async assertWithinLimits(
    tx: EntityManager,
    appointment: Appointment,
    { ctx, start, datetimeText }: Checked,
  ): Promise<void> {
    const ignore = { appointmentId: appointment.id };
    if (!(await withinLimits(tx, ctx, ctx.calendars[0], start, ignore)))
      throw new NotAvailableError('not_available', datetimeText);
  }
}
