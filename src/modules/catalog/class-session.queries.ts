import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AccountItemQuery, GetHandler } from '../../common/cqrs/account-messages';
import type { ClassSession } from './class-session.entity';
import { ClassSessionRepository } from './class-session.repository';
import type { ListClassSessionsRequest } from './class-session.requests';
import type { ClassSessionView } from './class-session.view';

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
  constructor(private readonly sessions: ClassSessionRepository) {}

  async execute({ accountId, request }: ListClassSessionsQuery): Promise<ClassSessionView[]> {
    const sessions = await this.sessions.listOf(accountId, {
      appointmentTypeIds: request.appointmentTypeID,
      calendarIds: request.calendarID,
    });
    return this.sessions.views(sessions);
  }
}

export class GetClassSessionQuery extends AccountItemQuery<ClassSessionView> {}

@QueryHandler(GetClassSessionQuery)
export class GetClassSessionHandler extends GetHandler(
  ClassSessionRepository,
  (sessions: ClassSession[], rows) => rows.views(sessions),
) {}
