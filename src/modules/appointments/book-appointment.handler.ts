import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { Metrics } from '../../common/metrics/metrics';
import type { DomainEvent } from '../../common/outbox/domain-event';
import {
  Appointment,
  SlotContexts,
  SlotPlacement,
  consumeHold,
  insertMembers,
  recordTurn,
} from '../availability';
import { upsertBookingClient } from '../clients';
import { AppointmentScheduledEvent, eventPayload } from './appointment-events';
import { AppointmentExtras } from './appointment-extras';
import { AppointmentChanges } from './appointment-changes';
import type { AppointmentView } from './appointment.view';
import { AppointmentRenderer } from './appointment-renderer';
import { AppointmentRepository } from './appointment.repository';
import { BookAppointmentCommand } from './book-appointment.command';
import { type Booking, bookingInput } from './book-appointment.requests';
import { type BookingChecked, bookedAppointment } from './booked-appointment';
import { checkBookingRequest, checkBookingTime, startOf } from './booking-checks';
import { type IdempotencyClaim, IdempotencyKeys } from './idempotency-keys';

/**
 * Books an appointment: the checks in the contract's order, then one transaction that locks the
 * candidate calendars, checks the time on what is committed (two bookings of one calendar run one
 * after the other: no double booking), takes a certificate's use, inserts the appointment, its
 * `scheduled` event and the client's record. Sent again with its `Idempotency-Key`, a request
 * answers what it booked; a `holdToken`'s hold is not busy for its client and becomes the booking.
 */
@CommandHandler(BookAppointmentCommand)
export class BookAppointmentHandler implements ICommandHandler<BookAppointmentCommand> {
  constructor(
    private readonly contexts: SlotContexts,
    private readonly placement: SlotPlacement,
    private readonly extras: AppointmentExtras,
    private readonly changes: AppointmentChanges,
    private readonly views: AppointmentRenderer,
    private readonly appointments: AppointmentRepository,
    private readonly idempotencyKeys: IdempotencyKeys,
    private readonly metrics: Metrics,
  ) {}

  async execute(command: BookAppointmentCommand): Promise<AppointmentView> {
    const { account, request, mode, idempotencyKey } = command;
    const claim = this.idempotencyKeys.claim(idempotencyKey, request, mode);
    const booking = { account, input: bookingInput(request), mode };
    return this.idempotencyKeys.once(
      account.id,
      claim,
      () => this.book(booking, claim),
      async (bookedId) => this.views.renderOne(await this.appointments.find(account.id, bookedId)),
    );
  }

  private async book(booking: Booking, claim?: IdempotencyClaim): Promise<AppointmentView> {
    // The account's settings are the principal's, read at authentication: a change reaches every
    // pod at once (AuthRevocations); one missed is at most AUTH_CACHE_TTL_MS old.
    const checked = await checkBooking(this.contexts, this.extras, booking);
    const appointment = await this.changes.transact(booking.account.id, (tx) =>
      this.write(tx, booking, checked, claim),
    );
    this.metrics.countBooking('booked');
    return this.views.renderWritten(appointment, {
      type: checked.ctx.type,
      calendar: checked.ctx.calendars.find((c) => c.id === appointment.calendarId)!,
      label: checked.label,
      hasAnswers: checked.fieldValues.length > 0,
      resources: checked.ctx.resources,
    });
  }

  /** Under the calendars' locks: the time checked on what is committed, the appointment inserted. */
  private async write(
    tx: EntityManager,
    booking: Booking,
    checked: BookingChecked,
    claim?: IdempotencyClaim,
  ): Promise<{ result: Appointment; events: DomainEvent[] }> {
    const { account, input, mode } = booking;
    const { ctx, start, hold } = checked;
    const placement = mode.admin
      ? await this.placement.admin(tx, ctx, start)
      : await this.placement.client(tx, ctx, checked, () => this.metrics.countBooking('conflict'));
    if (hold) await consumeHold(tx, hold.id);
    const sale = await this.extras.sale(tx, account, {
      priceCents: ctx.type.priceCents + ctx.addons.reduce((sum, a) => sum + a.priceCents, 0),
      typeId: ctx.type.id,
      code: input.certificate,
      email: input.email ?? null,
    });
    // Every column given (bookedAppointment): assigned, not create() (which walks TypeORM metadata).
    const booked = bookedAppointment(booking, { ...checked, ...placement, sale });
    const appointment = Object.assign(new Appointment(), booked);
    appointment.id = await this.appointments.insert(tx, appointment);
    await insertMembers(tx, 'appointment', appointment, appointment.memberCalendarIds ?? []);
    await recordTurn(tx, ctx.type, appointment.calendarId, 1, placement.turns);
    if (claim) await this.idempotencyKeys.record(tx, account.id, claim, appointment.id);
    await this.appointments.writeAnswers(tx, appointment.id, checked.fieldValues);
    // After the other writes: the client's row (locked by its unique key) is held only to the commit.
    await upsertBookingClient(tx, account.id, appointment, appointment.createdAt);
    const payload = eventPayload(appointment, mode.noEmail);
    return { result: appointment, events: [new AppointmentScheduledEvent(account.id, payload)] };
  }
}

/** Everything a booking checks that needs no lock, in the contract's order of errors (a series' too). */
export async function checkBooking(
  contexts: SlotContexts,
  extras: AppointmentExtras,
  { account, input, mode }: Booking,
): Promise<BookingChecked> {
  const admin = mode.admin;
  const slot = checkBookingRequest(input, { admin, requirePhone: account.requirePhone });
  const ctx = await contexts.resolve(account, slot);
  const calendarNamed = slot.calendarID !== undefined;
  const zone = calendarNamed ? ctx.calendars[0].timezone : account.timezone;
  const time = checkBookingTime(input, { admin, duration: ctx.rules.duration, zone });
  const fieldValues = await extras.answers(account.id, ctx.type, input.fields ?? [], admin);
  const label = await extras.label(account.id, input.labels ?? []);
  const start = startOf(time);
  // The hold last: the booking's own faults come first.
  const hold = await contexts.hold(account.id, input.holdToken, {
    typeId: ctx.type.id,
    start,
    calendarId: calendarNamed ? ctx.calendars[0].id : undefined,
    datetimeText: time.datetimeText,
  });
  return { ...time, start, ctx, calendarNamed, fieldValues, label, hold };
}
