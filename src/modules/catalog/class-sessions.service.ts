import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, In } from 'typeorm';
import { findOwned, findReferenced } from '../../common/database/tenant-rows';
import { parseDatetime } from '../../common/time/datetimes';
import { InvalidDatetimeError } from '../../common/time/time.errors';
import { AppointmentTypeCalendar } from './appointment-type-links.entity';
import { BusyKind, insertBusyRow } from './calendar-busy-kinds';
import { AppointmentType } from './appointment-type.entity';
import { Calendar } from './calendar.entity';
import {
  CalendarNotOfferingTypeError,
  DuplicateClassError,
  InvalidAppointmentTypeError,
  InvalidCalendarError,
  NotAClassError,
} from './catalog.errors';
import { ClassSession } from './class-session.entity';
import type { CreateClassSessionRequest, ListClassSessionsQuery } from './class-session.requests';
import { type ClassSessionView, toClassSessionView } from './class-session.view';

@Injectable()
export class ClassSessionsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(accountId: number, query: ListClassSessionsQuery): Promise<ClassSessionView[]> {
    const sessions = await this.dataSource.manager.find(ClassSession, {
      where: {
        accountId,
        ...(query.appointmentTypeID ? { appointmentTypeId: In(query.appointmentTypeID) } : {}),
        ...(query.calendarID ? { calendarId: In(query.calendarID) } : {}),
      },
      order: { startsAt: 'ASC', id: 'ASC' },
    });
    return this.views(this.dataSource.manager, sessions);
  }

  async get(accountId: number, id: number): Promise<ClassSessionView> {
    const session = await findOwned(this.dataSource.getRepository(ClassSession), accountId, id);
    const [view] = await this.views(this.dataSource.manager, [session]);
    return view;
  }

  async create(accountId: number, request: CreateClassSessionRequest): Promise<ClassSessionView> {
    const tx = this.dataSource.manager;
    const [type] = await findReferenced(
      tx,
      AppointmentType,
      accountId,
      [request.appointmentTypeID],
      (id) => new InvalidAppointmentTypeError(id),
    );
    if (type.kind !== 'class') throw new NotAClassError(type.id);
    const [calendar] = await findReferenced(
      tx,
      Calendar,
      accountId,
      [request.calendarID],
      (id) => new InvalidCalendarError(id),
    );
    const offered = await tx.existsBy(AppointmentTypeCalendar, {
      appointmentTypeId: type.id,
      calendarId: calendar.id,
    });
    if (!offered) throw new CalendarNotOfferingTypeError(calendar.id, type.id);
    const parsed = parseDatetime(request.datetime, calendar.timezone);
    if (parsed.kind !== 'moment') throw new InvalidDatetimeError(request.datetime);
    const startsAt = parsed.moment.toJSDate();
    const taken = await tx.existsBy(ClassSession, {
      appointmentTypeId: type.id,
      calendarId: calendar.id,
      startsAt,
    });
    if (taken) throw new DuplicateClassError(type.id, request.datetime, calendar.id);
    const session = await insertBusyRow(
      this.dataSource,
      BusyKind.sessions,
      calendar,
      ClassSession,
      {
        accountId,
        appointmentTypeId: type.id,
        calendarId: calendar.id,
        name: request.name ?? type.name,
        startsAt,
        createdAt: new Date(),
      },
    );
    return toClassSessionView(session, type, calendar);
  }

  /** Removes the session. (Sessions with bookings are the appointments module's to protect.) */
  async delete(accountId: number, id: number): Promise<void> {
    const session = await findOwned(this.dataSource.getRepository(ClassSession), accountId, id);
    await this.dataSource.manager.delete(ClassSession, { id: session.id });
  }

  private async views(tx: EntityManager, sessions: ClassSession[]): Promise<ClassSessionView[]> {
    if (sessions.length === 0) return [];
    const [types, calendars] = await Promise.all([
      tx.findBy(AppointmentType, {
        id: In([...new Set(sessions.map((s) => s.appointmentTypeId))]),
      }),
      tx.findBy(Calendar, { id: In([...new Set(sessions.map((s) => s.calendarId))]) }),
    ]);
    const typeById = new Map(types.map((t) => [t.id, t]));
    const calendarById = new Map(calendars.map((c) => [c.id, c]));
    return sessions.map((s) =>
      toClassSessionView(s, typeById.get(s.appointmentTypeId)!, calendarById.get(s.calendarId)!),
    );
  }
}
