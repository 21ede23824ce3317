import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AppointmentTypeRepository } from './appointment-type.repository';
import { CalendarRepository } from './calendar.repository';
import type { ClassSession } from './class-session.entity';
import { ClassSessionRepository } from './class-session.repository';
import type { ListClassSessionsRequest } from './class-session.requests';
import { type ClassSessionView, toClassSessionView } from './class-session.view';

export class ListClassSessionsQuery extends Query<ClassSessionView[]> {
  constructor(
    readonly accountId: number,
    readonly request: ListClassSessionsRequest,
  ) {
    super();
  }
}

@QueryHandler(ListClassSessionsQuery)
export class ListClassSessionsHandler implements IQueryHandler<ListClassSessionsQuery> {
  constructor(
    private readonly sessions: ClassSessionRepository,
    private readonly types: AppointmentTypeRepository,
    private readonly calendars: CalendarRepository,
  ) {}

  async execute({ accountId, request }: ListClassSessionsQuery): Promise<ClassSessionView[]> {
    const sessions = await this.sessions.listOf(accountId, {
      appointmentTypeIds: request.appointmentTypeID,
      calendarIds: request.calendarID,
    });
    return viewsOf(sessions, this.types, this.calendars);
  }
}

export class GetClassSessionQuery extends Query<ClassSessionView> {
  constructor(
    readonly accountId: number,
    readonly id: number,
  ) {
    super();
  }
}

@QueryHandler(GetClassSessionQuery)
export class GetClassSessionHandler implements IQueryHandler<GetClassSessionQuery> {
  constructor(
    private readonly sessions: ClassSessionRepository,
    private readonly types: AppointmentTypeRepository,
    private readonly calendars: CalendarRepository,
  ) {}

  async execute({ accountId, id }: GetClassSessionQuery): Promise<ClassSessionView> {
    const session = await this.sessions.find(accountId, id);
    const [view] = await viewsOf([session], this.types, this.calendars);
    return view;
  }
}

/** The sessions' views: each shows its type's duration and seats, its calendar's name and zone. */
async function viewsOf(
  sessions: ClassSession[],
  types: AppointmentTypeRepository,
  calendars: CalendarRepository,
): Promise<ClassSessionView[]> {
  if (sessions.length === 0) return [];
  const [typeRows, calendarRows] = await Promise.all([
    types.byIds(sessions.map((s) => s.appointmentTypeId)),
    calendars.byIds(sessions.map((s) => s.calendarId)),
  ]);
  const typeById = new Map(typeRows.map((t) => [t.id, t]));
  const calendarById = new Map(calendarRows.map((c) => [c.id, c]));
  return sessions.map((s) =>
    toClassSessionView(s, typeById.get(s.appointmentTypeId)!, calendarById.get(s.calendarId)!),
  );
}
