import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../common/database/unit-of-work';
import type { Account } from '../accounts';
import { Appointment, SlotContexts } from '../availability';
import type { BookingChecked } from './booked-appointment';
import { bookedAppointment } from './booked-appointment';
import { bookingInput } from './book-appointment.requests';
import type { CheckSeriesRequest } from './book-series.requests';
import { bookingSlot, checkBookingTime, startOf } from './booking-checks';
import { AppointmentRepository } from './appointment.repository';
import { SeriesPlacement, seriesPlans } from './series-placement';
import { assertTypeOffers, readRecurrence } from './series-recurrence';
import { SeriesRepository } from './series.repository';
import { SeriesRenderer } from './series-renderer';
import type { CheckedOccurrence, SeriesView } from './series.view';

export class GetSeriesQuery extends Query<SeriesView> {
  constructor(
    readonly accountId: number,
    readonly seriesId: number,
  ) {
    super();
  }
}

@QueryHandler(GetSeriesQuery)
export class GetSeriesHandler implements IQueryHandler<GetSeriesQuery> {
  constructor(private readonly renderer: SeriesRenderer) {}

  execute({ accountId, seriesId }: GetSeriesQuery): Promise<SeriesView> {
    return this.renderer.view(accountId, seriesId);
  }
}

/** `POST /availability/check-series`, asked by `account` (the principal's, as authenticated). */
export class CheckSeriesQuery extends Query<CheckedOccurrence[]> {
  constructor(
    readonly account: Account,
    readonly request: CheckSeriesRequest,
  ) {
    super();
  }
}

/**
 * Each occurrence checked exactly as `POST /appointment-series` would check it now, for a client:
 * the booking's own placement (SeriesPlacement) rehearsed in a transaction that is rolled back
 * (UnitOfWork.rehearse), each occurrence that passes inserted as a stand-in so that the next ones
 * are checked with it. It takes the calendars' locks for those few statements, as a booking would.
 */
@QueryHandler(CheckSeriesQuery)
export class CheckSeriesHandler implements IQueryHandler<CheckSeriesQuery> {
  constructor(
    private readonly contexts: SlotContexts,
    private readonly placement: SeriesPlacement,
    private readonly appointments: AppointmentRepository,
    private readonly series: SeriesRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async execute({ account, request }: CheckSeriesQuery): Promise<CheckedOccurrence[]> {
    const input = bookingInput({ ...request, firstName: '', lastName: '' });
    const slot = bookingSlot(input);
    const ctx = await this.contexts.resolve(account, slot);
    const calendarNamed = slot.calendarID !== undefined;
    const zone = calendarNamed ? ctx.calendars[0].timezone : account.timezone;
    const time = checkBookingTime(input, { admin: false, duration: ctx.rules.duration, zone });
    const start = startOf(time);
    const recurrence = readRecurrence(request.recurrence);
    assertTypeOffers(
      await this.series.typeRecurrence(account.id, ctx.type.id),
      recurrence,
      ctx.type.id,
    );
    const hold = await this.contexts.hold(account.id, input.holdToken, {
      typeId: ctx.type.id,
      start,
      calendarId: calendarNamed ? ctx.calendars[0].id : undefined,
      datetimeText: time.datetimeText,
    });
    const checked: BookingChecked = {
      ...time,
      start,
      ctx,
      calendarNamed,
      fieldValues: [],
      label: null,
      hold,
    };
    const plans = seriesPlans(checked, recurrence);
    const booking = { account, input, mode: { admin: false, noEmail: true } };
    const noSale = { priceCents: 0, priceSoldCents: 0, certificate: null, certificateId: null };
    const { outcomes } = await this.unitOfWork.rehearse((tx) =>
      this.placement.place(tx, checked, plans, false, async (_, at, placement) => {
        const row = bookedAppointment(booking, {
          ...checked,
          ...placement,
          start: at,
          sale: noSale,
        });
        await this.appointments.insert(tx, Object.assign(new Appointment(), row));
      }),
    );
    return outcomes.map(({ datetime, refusal }) =>
      refusal === null
        ? { datetime, valid: true }
        : { datetime, valid: false, reason: refusal.code },
    );
  }
}
