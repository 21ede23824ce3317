import { Injectable } from '@nestjs/common';
import { type EntityManager, In, LessThan, Not } from 'typeorm';
import { insertRows } from '../../common/database/insert-rows';
import { RepositoryOf } from '../../common/database/tenant-repository';
import { findReferenced } from '../../common/database/tenant-rows';
import { Appointment } from '../availability';
import { AppointmentType, Calendar, Label } from '../catalog';
import type { FieldValue } from '../forms';
import { AppointmentFieldValue } from './appointment-field-value.entity';
import { UnknownLabelError } from './appointment.errors';
import {
  DEFAULT_APPOINTMENT_LIST_MAX,
  type FieldFilter,
  type ListAppointmentsRequest,
} from './list-appointments.requests';

/** The appointments' rows and their answers to forms. */
@Injectable()
export class AppointmentRepository extends RepositoryOf(Appointment) {
  /** The row `id`, whatever its account (null: none). */
  byId(id: number): Promise<Appointment | null> {
    return this.dataSource.manager.findOneBy(Appointment, { id });
  }

  /** Inserts the booked appointment (every column given), answering its id. */
  async insert(tx: EntityManager, appointment: Appointment): Promise<number> {
    return Number(await insertRows(tx, Appointment, [appointment]));
  }

  async addPayment(tx: EntityManager, appointment: Appointment, cents: number): Promise<void> {
    const amountPaidCents = appointment.amountPaidCents + cents;
    await tx.update(
      Appointment,
      { id: appointment.id },
      { amountPaidCents, updatedAt: new Date() },
    );
  }

  /** The account's live label `id` (400 `unknown_label` when it is none, 403 another's). */
  async label(accountId: number, id: number): Promise<Label> {
    const missing = (unknown: number) => new UnknownLabelError(unknown);
    return (await findReferenced(this.dataSource.manager, Label, accountId, [id], missing))[0];
  }

  /** The calendar or type a list filters by, deleted or not (null: none). */
  calendar(id: number): Promise<Calendar | null> {
    return this.dataSource.manager.findOneBy(Calendar, { id });
  }

  appointmentType(id: number): Promise<AppointmentType | null> {
    return this.dataSource.manager.findOneBy(AppointmentType, { id });
  }

  /**
   * Those starting in `[from, until)` (idx_appointments_account_start: a page costs its rows; a
   * series' by idx_appointments_series).
   */
  search(
    accountId: number,
    { from, until }: { from?: Date; until?: Date },
    query: ListAppointmentsRequest,
    fields: FieldFilter[],
  ): Promise<Appointment[]> {
    const direction = query.direction ?? 'DESC';
    const rows = this.dataSource.manager
      .createQueryBuilder(Appointment, 'a')
      .useIndex(
        query.seriesID === undefined ? 'idx_appointments_account_start' : 'idx_appointments_series',
      )
      .where('a.account_id = :accountId', { accountId })
      .orderBy('a.starts_at', direction)
      .addOrderBy('a.id', direction)
      .limit(query.max ?? DEFAULT_APPOINTMENT_LIST_MAX);
    if (from) rows.andWhere('a.starts_at >= :from', { from });
    if (until) rows.andWhere('a.starts_at < :until', { until });
    if (!query.showall)
      rows.andWhere('a.canceled = :canceled', { canceled: query.canceled ?? false });
    // A calendar's appointments: those it hosts and the collective ones it is a member of.
    if (query.calendarID !== undefined)
      rows.andWhere(
        `(a.calendar_id = :calendarId OR a.id IN (SELECT m.appointment_id FROM appointment_members m
          WHERE m.calendar_id = :calendarId AND m.account_id = :accountId))`,
        { calendarId: query.calendarID },
      );
    if (query.appointmentTypeID !== undefined)
      rows.andWhere('a.appointment_type_id = :typeId', { typeId: query.appointmentTypeID });
    if (query.seriesID !== undefined)
      rows.andWhere('a.series_id = :seriesId', { seriesId: query.seriesID });
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
    return rows.getMany();
  }

  /** Stores answers of the appointment; with `replacing`, the answers to those fields go first. */
  async writeAnswers(
    tx: EntityManager,
    appointmentId: number,
    values: FieldValue[],
    replacing: number[] = [],
  ): Promise<void> {
    if (replacing.length > 0)
      await tx.delete(AppointmentFieldValue, { appointmentId, fieldId: In(replacing) });
    if (values.length > 0)
      await tx.insert(
        AppointmentFieldValue,
        values.map(({ fieldId, formId, value }) => ({ appointmentId, fieldId, formId, value })),
      );
  }

  async answeredFieldIds(appointmentId: number): Promise<number[]> {
    const rows = await this.dataSource.manager.find(AppointmentFieldValue, {
      select: { fieldId: true },
      where: { appointmentId },
    });
    return rows.map((row) => row.fieldId);
  }

  /** The client's `max` latest appointments before this one (idx_appointments_account_email). */
  async earlierOfClient(appointment: Appointment, max: number): Promise<number[]> {
    const rows = await this.dataSource.manager.find(Appointment, {
      select: { id: true },
      where: {
        accountId: appointment.accountId,
        email: appointment.email,
        startsAt: LessThan(appointment.startsAt),
        id: Not(appointment.id),
      },
      order: { startsAt: 'DESC', id: 'DESC' },
      take: max,
    });
    return rows.map((row) => row.id);
  }

  /** The answers of those appointments to those fields (the answers' primary key). */
  answersOf(appointmentIds: number[], fieldIds: number[]): Promise<AppointmentFieldValue[]> {
    return this.dataSource.manager.find(AppointmentFieldValue, {
      where: { appointmentId: In(appointmentIds), fieldId: In(fieldIds) },
    });
  }
}
