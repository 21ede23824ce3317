import { Body } from '@nestjs/common';
import { BusController } from '../../common/cqrs/bus-controller';
import { IdParam } from '../../common/http/id-param';
import { CurrentAccountId, CurrentPrincipal, type Principal } from '../accounts';
import { CreateCalendarRequest, UpdateCalendarRequest } from './calendar.requests';
import {
  CALENDAR_DETAILS_VIEW,
  CALENDAR_VIEW,
  type CalendarDetailsView,
  type CalendarView,
} from './calendar.view';
import {
  CreateCalendarCommand,
  DeleteCalendarCommand,
  UpdateCalendarCommand,
} from './calendar.commands';
import { GetCalendarQuery, ListCalendarsQuery } from './calendar.queries';
import { CatalogController, Route } from './catalog-routes';

@CatalogController('calendars')
export class CalendarsController extends BusController {
  @Route.list('List the calendars', CALENDAR_VIEW)
  list(@CurrentAccountId() accountId: number): Promise<CalendarView[]> {
    return this.queries.execute(new ListCalendarsQuery(accountId));
  }

  @Route.get('Read a calendar', CALENDAR_DETAILS_VIEW)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<CalendarDetailsView> {
    return this.queries.execute(new GetCalendarQuery(accountId, id));
  }

  @Route.create('Create a calendar', CALENDAR_DETAILS_VIEW)
  create(
    @CurrentPrincipal() principal: Principal,
    @Body() request: CreateCalendarRequest,
  ): Promise<CalendarDetailsView> {
    return this.commands.execute(
      new CreateCalendarCommand(principal.accountId, principal.account.timezone, request),
    );
  }

  @Route.update('Change a calendar', CALENDAR_DETAILS_VIEW)
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateCalendarRequest,
  ): Promise<CalendarDetailsView> {
    return this.commands.execute(new UpdateCalendarCommand(accountId, id, request));
  }

  @Route.delete('Delete a calendar')
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteCalendarCommand(accountId, id));
  }
}
