import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccountCommand, AccountItemAction } from '../../common/cqrs/account-messages';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { parseDatetime } from '../../common/time/datetimes';
import { InvalidDatetimeError } from '../../common/time/time.errors';
import { AppointmentTypeRepository } from './appointment-type.repository';
import { CalendarRepository } from './calendar.repository';
import {
  CalendarNotOfferingTypeError,
  DuplicateClassError,
  InvalidAppointmentTypeError,
  InvalidCalendarError,
  NotAClassError,
} from './catalog.errors';
import { WriteHandler } from '../../common/cqrs/write-handler';
import { ClassSession } from './class-session.entity';
import { ClassSessionRepository } from './class-session.repository';
import type { CreateClassSessionRequest } from './class-session.requests';
import { type ClassSessionView, toClassSessionView } from './class-session.view';

export class CreateClassSessionCommand extends AccountCommand<
  CreateClassSessionRequest,
  ClassSessionView
> {}

@CommandHandler(CreateClassSessionCommand)
export class CreateClassSessionHandler implements ICommandHandler<CreateClassSessionCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly types: AppointmentTypeRepository,
    private readonly calendars: CalendarRepository,
    private readonly sessions: ClassSessionRepository,
  ) {}

  execute({ accountId, request }: CreateClassSessionCommand): Promise<ClassSessionView> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const [type] = await this.types.referenced(
        accountId,
        [request.appointmentTypeID],
        (id) => new InvalidAppointmentTypeError(id),
        tx,
      );
      if (type.kind !== 'class') throw new NotAClassError(type.id);
      const [calendar] = await this.calendars.referenced(
        accountId,
        [request.calendarID],
        (id) => new InvalidCalendarError(id),
        tx,
      );
      if (!(await this.types.offersCalendar(type.id, calendar.id, tx)))
        throw new CalendarNotOfferingTypeError(calendar.id, type.id);
      const parsed = parseDatetime(request.datetime, calendar.timezone);
      if (parsed.kind !== 'moment') throw new InvalidDatetimeError(request.datetime);
      const startsAt = parsed.moment.toJSDate();
      const where = { appointmentTypeId: type.id, calendarId: calendar.id, startsAt };
      if (await this.sessions.exists(where, tx))
        throw new DuplicateClassError(type.id, request.datetime, calendar.id);
      const session = Object.assign(new ClassSession(), {
        ...where,
        accountId,
        name: request.name ?? type.name,
        createdAt: new Date(),
      });
      return toClassSessionView(await this.sessions.insert(session, tx), type, calendar);
    });
  }
}

/** Removes the session. (Sessions with bookings are the appointments module's to protect.) */
export class DeleteClassSessionCommand extends AccountItemAction {}

@CommandHandler(DeleteClassSessionCommand)
export class DeleteClassSessionHandler extends WriteHandler(ClassSessionRepository) {
  execute({ accountId, id }: DeleteClassSessionCommand): Promise<void> {
    return this.unitOfWork.run(accountId, (tx) => this.rows.remove(accountId, id, tx));
  }
}
