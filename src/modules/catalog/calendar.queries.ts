import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CalendarRepository } from './calendar.repository';
import {
  type CalendarDetailsView,
  type CalendarView,
  toCalendarDetailsView,
  toCalendarView,
} from './calendar.view';

export class ListCalendarsQuery extends Query<CalendarView[]> {
  constructor(readonly accountId: number) {
    super();
  }
}

@QueryHandler(ListCalendarsQuery)
export class ListCalendarsHandler implements IQueryHandler<ListCalendarsQuery> {
  constructor(private readonly calendars: CalendarRepository) {}

  async execute({ accountId }: ListCalendarsQuery): Promise<CalendarView[]> {
    return (await this.calendars.list(accountId)).map(toCalendarView);
  }
}

export class GetCalendarQuery extends Query<CalendarDetailsView> {
  constructor(
    readonly accountId: number,
    readonly id: number,
  ) {
    super();
  }
}

@QueryHandler(GetCalendarQuery)
export class GetCalendarHandler implements IQueryHandler<GetCalendarQuery> {
  constructor(private readonly calendars: CalendarRepository) {}

  async execute({ accountId, id }: GetCalendarQuery): Promise<CalendarDetailsView> {
    return toCalendarDetailsView(await this.calendars.find(accountId, id));
  }
}
