import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import type { DomainEvent } from '../../common/outbox/domain-event';
import { Appointment, SlotContexts, consumeHold, insertMembers, recordTurn } from '../availability';
import { upsertBookingClient } from '../clients';
import { AppointmentScheduledEvent, eventPayload } from './appointment-events';
import { AppointmentExtras } from './appointment-extras';
import { AppointmentChanges } from './appointment-changes';
import { AppointmentSeries } from './appointment-series.entity';
import { IdempotencyKeyReusedError, SeriesUnavailableError } from './appointment.errors';
import { AppointmentRepository } from './appointment.repository';
import { checkBooking } from './book-appointment.handler';
import { type Booking, bookingInput } from './book-appointment.requests';
import { BookSeriesCommand } from './book-series.command';
import { type BookingChecked, bookedAppointment } from './booked-appointment';
import { type IdempotencyClaim, IdempotencyKeys } from './idempotency-keys';
import { type SeriesPlan, SeriesPlacement, seriesPlans } from './series-placement';
import { type Recurrence, assertTypeOffers, readRecurrence } from './series-recurrence';
import { SeriesRenderer } from './series-renderer';
import { SeriesRepository } from './series.repository';
import type { SeriesView } from './series.view';

/**
 * Books a series, all or nothing (docs/series.md): a single booking's checks for the request and
 * its first occurrence, then one transaction in which SeriesPlacement places every occurrence on
 * one calendar, each inserted as it passes with its `scheduled` event. If any is refused, nothing
 * is written: the first refusal's error, with every refused occurrence in `unavailable`.
 */
@CommandHandler(BookSeriesCommand)
export class BookSeriesHandler implements ICommandHandler<BookSeriesCommand> {
  constructor(
    private readonly contexts: SlotContexts,
    private readonly extras: AppointmentExtras,
    private readonly placement: SeriesPlacement,
    private readonly changes: AppointmentChanges,
    private readonly appointments: AppointmentRepository,
    private readonly series: SeriesRepository,
    private readonly reader: SeriesRenderer,
    private readonly idempotencyKeys: IdempotencyKeys,
  ) {}

  async execute(command: BookSeriesCommand): Promise<SeriesView> {
    const { account, request, mode, idempotencyKey } = command;
    const claim = this.idempotencyKeys.claim(idempotencyKey, request, mode);
    const booking = { account, input: bookingInput(request), mode };
    return this.idempotencyKeys.once(
      account.id,
      claim,
      () => this.book(booking, request.recurrence, claim),
      async (bookedId) => {
        const { seriesId } = await this.appointments.find(account.id, bookedId);
        // The key booked a single appointment (POST /appointments), not a series.
        if (seriesId === null) throw new IdempotencyKeyReusedError();
        return this.reader.view(account.id, seriesId);
      },
    );
  }

  private async book(
    booking: Booking,
    recurrenceAsSent: unknown,
    claim?: IdempotencyClaim,
  ): Promise<SeriesView> {
    const checked = await checkBooking(this.contexts, this.extras, booking);
    const recurrence = readRecurrence(recurrenceAsSent);
    if (!booking.mode.admin) {
      const settings = await this.series.typeRecurrence(booking.account.id, checked.ctx.type.id);
      assertTypeOffers(settings, recurrence, checked.ctx.type.id);
    }
    const plans = seriesPlans(checked, recurrence);
    const { series, booked } = await this.changes.transact(booking.account.id, (tx) =>
      this.write(tx, booking, checked, recurrence, plans, claim),
    );
    return this.reader.written(series, booked, {
      type: checked.ctx.type,
      calendar: checked.ctx.calendars.find((c) => c.id === series.calendarId)!,
      label: checked.label,
      hasAnswers: checked.fieldValues.length > 0,
    });
  }

  private async write(
    tx: EntityManager,
    booking: Booking,
    checked: BookingChecked,
    recurrence: Recurrence,
    plans: SeriesPlan[],
    claim?: IdempotencyClaim,
  ): Promise<{
    result: { series: AppointmentSeries; booked: Appointment[] };
    events: DomainEvent[];
  }> {
    const { account, input, mode } = booking;
    const { ctx } = checked;
    const booked: Appointment[] = [];
    let series = new AppointmentSeries();
    const { outcomes } = await this.placement.place(
      tx,
      checked,
      plans,
      mode.admin,
      async (index, start, placement) => {
        if (index === 0) {
          // A calendar's try starts here (a refused one was undone to its savepoint).
          booked.length = 0;
          const row = {
            accountId: account.id,
            appointmentTypeId: ctx.type.id,
            calendarId: placement.calendar.id,
            ...recurrence,
            startsAt: new Date(start),
            timezone: placement.calendar.timezone,
            createdAt: new Date(),
          };
          series = Object.assign(new AppointmentSeries(), row, {
            id: await this.series.insert(tx, row),
          });
          if (checked.hold) await consumeHold(tx, checked.hold.id);
        }
        const sale = await this.extras.sale(tx, account, {
          priceCents: ctx.type.priceCents + ctx.addons.reduce((sum, a) => sum + a.priceCents, 0),
          typeId: ctx.type.id,
          code: input.certificate,
          email: input.email ?? null,
        });
        const row = bookedAppointment(booking, { ...checked, ...placement, start, sale });
        const appointment = Object.assign(new Appointment(), row, { seriesId: series.id });
        appointment.id = await this.appointments.insert(tx, appointment);
        await insertMembers(tx, 'appointment', appointment, appointment.memberCalendarIds ?? []);
        booked.push(appointment);
      },
    );
    const refused = outcomes.filter((o) => o.refusal !== null);
    if (refused.length > 0)
      throw new SeriesUnavailableError(
        refused[0].refusal!,
        refused.map((o) => o.datetime),
      );
    // A round-robin type: the series took as many turns as it has occurrences.
    await recordTurn(tx, ctx.type, booked[0].calendarId, booked.length);
    if (claim) await this.idempotencyKeys.record(tx, account.id, claim, booked[0].id);
    for (const appointment of booked)
      await this.appointments.writeAnswers(tx, appointment.id, checked.fieldValues);
    // After the other writes: the client's row (locked by its unique key) is held only to the commit.
    await upsertBookingClient(tx, account.id, booked[0], booked[0].createdAt);
    const events = booked.map(
      (a) => new AppointmentScheduledEvent(account.id, eventPayload(a, mode.noEmail)),
    );
    return { result: { series, booked }, events };
  }
}
