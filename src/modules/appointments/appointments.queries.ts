import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { findOwned } from '../../common/database/tenant-rows';
import { ForbiddenError } from '../../common/errors/domain-error';
import type { Account } from '../accounts';
import { Appointment, localDateBounds } from '../availability';
import {
  AppointmentType,
  Calendar,
  InvalidAppointmentTypeError,
  InvalidCalendarError,
} from '../catalog';
import { PaymentRepository, type PaymentView, toPaymentView } from '../certificates';
import type { AppointmentView } from './appointment.view';
import { AppointmentViews } from './appointment-views';
import {
  DEFAULT_APPOINTMENT_LIST_MAX,
  type FieldFilter,
  type GetAppointmentQuery,
  type ListAppointmentsQuery,
} from './list-appointments.request';
import { PastFormAnswers } from './past-form-answers';

/** Reading appointments. */
@Injectable()
export class AppointmentsQueries {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly views: AppointmentViews,
    private readonly ledger: PaymentRepository,
    private readonly pastAnswers: PastFormAnswers,
  ) {}

  /** With `pastFormAnswers`, its client's earlier answers fill the questions it left open. */
  async get(
    accountId: number,
    id: number,
    { pastFormAnswers = false }: GetAppointmentQuery = {},
  ): Promise<AppointmentView> {
    const appointment = await findOwned(this.dataSource.getRepository(Appointment), accountId, id);
    const moreAnswers = pastFormAnswers ? await this.pastAnswers.of(appointment) : [];
    const [view] = await this.views.render([appointment], { moreAnswers });
    return view;
  }

  /** The view of a row the caller has read already (the confirmation page, found by its token). */
  async viewOf(appointment: Appointment): Promise<AppointmentView> {
    const [view] = await this.views.render([appointment]);
    return view;
  }

  /** The appointment's payments and refunds, oldest first, at times in the appointment's zone. */
  async payments(accountId: number, id: number): Promise<PaymentView[]> {
    const appointment = await findOwned(this.dataSource.getRepository(Appointment), accountId, id);
    const payments = await this.ledger.list(accountId, { kind: 'appointment', id: appointment.id });
    return payments.map((payment) => toPaymentView(payment, appointment.timezone));
  }

  /**
   * The account's appointments starting in `[minDate 00:00, maxDate + 1 00:00)` (the dates read in
   * the zone of the calendar asked for, else the account's), by start time, through
   * `idx_appointments_account_start`: the dates bound the index range and the order is the index's,
   * so a page costs what it shows (plus the rows the other filters skip). A calendar or type that
   * was deleted can still be asked for: its appointments stay.
   */
  async list(
    account: Account,
    query: ListAppointmentsQuery,
    fields: FieldFilter[],
  ): Promise<AppointmentView[]> {
    const manager = this.dataSource.manager;
    let zone = account.timezone;
    if (query.calendarID !== undefined) {
      const calendar = await manager.findOneBy(Calendar, { id: query.calendarID });
      if (!calendar) throw new InvalidCalendarError(query.calendarID);
      if (calendar.accountId !== account.id) throw new ForbiddenError();
      zone = calendar.timezone;
    }
    if (query.appointmentTypeID !== undefined) {
      const type = await manager.findOneBy(AppointmentType, { id: query.appointmentTypeID });
      if (!type) throw new InvalidAppointmentTypeError(query.appointmentTypeID);
      if (type.accountId !== account.id) throw new ForbiddenError();
    }
    const { from, until } = localDateBounds(zone, query);

    const direction = query.direction ?? 'DESC';
    const rows = manager
      .createQueryBuilder(Appointment, 'a')
      .useIndex('idx_appointments_account_start')
      .where('a.account_id = :accountId', { accountId: account.id })
      .orderBy('a.starts_at', direction)
      .addOrderBy('a.id', direction)
      .limit(query.max ?? DEFAULT_APPOINTMENT_LIST_MAX);
    if (from) rows.andWhere('a.starts_at >= :from', { from });
    if (until) rows.andWhere('a.starts_at < :until', { until });
    if (!query.showall)
      rows.andWhere('a.canceled = :canceled', { canceled: query.canceled ?? false });
    if (query.calendarID !== undefined)
      rows.andWhere('a.calendar_id = :calendarId', { calendarId: query.calendarID });
    if (query.appointmentTypeID !== undefined)
      rows.andWhere('a.appointment_type_id = :typeId', { typeId: query.appointmentTypeID });
    // The columns' collation compares without case; e-mails are stored lower-cased anyway.
    if (query.firstName !== undefined)
      rows.andWhere('a.first_name = :firstName', { firstName: query.firstName.trim() });
    if (query.lastName !== undefined)
      rows.andWhere('a.last_name = :lastName', { lastName: query.lastName.trim() });
    if (query.email !== undefined)
      rows.andWhere('a.email = :email', { email: query.email.trim().toLowerCase() });
    if (query.phone !== undefined) rows.andWhere('a.phone = :phone', { phone: query.phone.trim() });
    fields.forEach(({ fieldId, value }, i) =>
      rows.andWhere(
        `EXISTS (SELECT 1 FROM appointment_field_values v${i}
          WHERE v${i}.appointment_id = a.id AND v${i}.field_id = :field${i} AND v${i}.value = :value${i})`,
        { [`field${i}`]: fieldId, [`value${i}`]: value.trim() },
      ),
    );
    return this.views.render(await rows.getMany(), { excludeForms: query.excludeForms ?? false });
  }
}
