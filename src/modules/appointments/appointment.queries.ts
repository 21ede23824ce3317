import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { AccountItemQuery } from '../../common/cqrs/account-messages';
import { ForbiddenError } from '../../common/errors/domain-error';
import type { Account } from '../accounts';
import { type Appointment, localDateBounds } from '../availability';
import { InvalidAppointmentTypeError, InvalidCalendarError } from '../catalog';
import { PaymentRepository, type PaymentView, toPaymentView } from '../certificates';
import { AppointmentRenderer } from './appointment-renderer';
import { AppointmentRepository } from './appointment.repository';
import { SeriesRepository } from './series.repository';
import type { AppointmentView } from './appointment.view';
import type {
  FieldFilter,
  GetAppointmentRequest,
  ListAppointmentsRequest,
} from './list-appointments.requests';
import { PastFormAnswers } from './past-form-answers';

/** `GET /appointments/{id}`; with `pastFormAnswers`, its client's earlier answers fill the open questions. */
export class GetAppointmentQuery extends AccountItemQuery<AppointmentView> {
  constructor(
    accountId: number,
    id: number,
    readonly request: GetAppointmentRequest = {},
  ) {
    super(accountId, id);
  }
}

@QueryHandler(GetAppointmentQuery)
export class GetAppointmentHandler implements IQueryHandler<GetAppointmentQuery> {
  constructor(
    private readonly appointments: AppointmentRepository,
    private readonly renderer: AppointmentRenderer,
    private readonly pastAnswers: PastFormAnswers,
  ) {}

  async execute({ accountId, id, request }: GetAppointmentQuery): Promise<AppointmentView> {
    const appointment = await this.appointments.find(accountId, id);
    const moreAnswers = request.pastFormAnswers ? await this.pastAnswers.of(appointment) : [];
    return this.renderer.renderOne(appointment, { moreAnswers });
  }
}

/** The appointment `id` whatever its account, or null: the confirmation page checks its token. */
export class FindAppointmentQuery extends Query<Appointment | null> {
  constructor(readonly id: number) {
    super();
  }
}

@QueryHandler(FindAppointmentQuery)
export class FindAppointmentHandler implements IQueryHandler<FindAppointmentQuery> {
  constructor(private readonly appointments: AppointmentRepository) {}

  execute({ id }: FindAppointmentQuery): Promise<Appointment | null> {
    return this.appointments.byId(id);
  }
}

/** The view of a row the caller has read already (the confirmation page, found by its token). */
export class RenderAppointmentQuery extends Query<AppointmentView> {
  constructor(readonly appointment: Appointment) {
    super();
  }
}

@QueryHandler(RenderAppointmentQuery)
export class RenderAppointmentHandler implements IQueryHandler<RenderAppointmentQuery> {
  constructor(private readonly renderer: AppointmentRenderer) {}

  execute({ appointment }: RenderAppointmentQuery): Promise<AppointmentView> {
    return this.renderer.renderOne(appointment);
  }
}

/** The appointment's payments and refunds, oldest first, at times in the appointment's zone. */
export class ListAppointmentPaymentsQuery extends AccountItemQuery<PaymentView[]> {}

@QueryHandler(ListAppointmentPaymentsQuery)
export class ListAppointmentPaymentsHandler implements IQueryHandler<ListAppointmentPaymentsQuery> {
  constructor(
    private readonly appointments: AppointmentRepository,
    private readonly ledger: PaymentRepository,
  ) {}

  async execute({ accountId, id }: ListAppointmentPaymentsQuery): Promise<PaymentView[]> {
    const appointment = await this.appointments.find(accountId, id);
    const payments = await this.ledger.list(accountId, { kind: 'appointment', id: appointment.id });
    return payments.map((payment) => toPaymentView(payment, appointment.timezone));
  }
}

/** `GET /appointments`: by start, in the dates' range; a deleted calendar or type may be named. */
export class ListAppointmentsQuery extends Query<AppointmentView[]> {
  constructor(
    readonly account: Account,
    readonly request: ListAppointmentsRequest,
    readonly fields: FieldFilter[],
  ) {
    super();
  }
}

@QueryHandler(ListAppointmentsQuery)
export class ListAppointmentsHandler implements IQueryHandler<ListAppointmentsQuery> {
  constructor(
    private readonly appointments: AppointmentRepository,
    private readonly series: SeriesRepository,
    private readonly renderer: AppointmentRenderer,
  ) {}

  async execute({ account, request, fields }: ListAppointmentsQuery): Promise<AppointmentView[]> {
    let zone = account.timezone;
    if (request.calendarID !== undefined) {
      const calendar = await this.appointments.calendar(request.calendarID);
      if (!calendar) throw new InvalidCalendarError(request.calendarID);
      if (calendar.accountId !== account.id) throw new ForbiddenError();
      zone = calendar.timezone;
    }
    if (request.appointmentTypeID !== undefined) {
      const type = await this.appointments.appointmentType(request.appointmentTypeID);
      if (!type) throw new InvalidAppointmentTypeError(request.appointmentTypeID);
      if (type.accountId !== account.id) throw new ForbiddenError();
    }
    // 404 or 403 as GET /appointment-series/{id} answers.
    if (request.seriesID !== undefined) await this.series.find(account.id, request.seriesID);
    const bounds = localDateBounds(zone, request);
    const rows = await this.appointments.search(account.id, bounds, request, fields);
    return this.renderer.render(rows, { excludeForms: request.excludeForms ?? false });
  }
}
