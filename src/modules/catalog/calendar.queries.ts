import { QueryHandler } from '@nestjs/cqrs';
import {
  AccountItemQuery,
  AccountQuery,
  each,
  GetHandler,
  ListHandler,
} from '../../common/cqrs/account-messages';
import { CalendarRepository } from './calendar.repository';
import {
  type CalendarDetailsView,
  type CalendarView,
  toCalendarDetailsView,
  toCalendarView,
} from './calendar.view';

export class ListCalendarsQuery extends AccountQuery<CalendarView[]> {}

@QueryHandler(ListCalendarsQuery)
export class ListCalendarsHandler extends ListHandler(CalendarRepository, each(toCalendarView)) {}

export class GetCalendarQuery extends AccountItemQuery<CalendarDetailsView> {}

@QueryHandler(GetCalendarQuery)
export class GetCalendarHandler extends GetHandler(
  CalendarRepository,
  each(toCalendarDetailsView),
) {}
