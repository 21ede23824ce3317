import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AccountItemQuery } from '../../common/cqrs/account-messages';
import { BusySourceRepository } from './busy-source.repository';
import { type BusySourceView, toBusySourceView } from './busy-source.view';

/** The sources of calendar `id`: another account's calendar is 403, as everywhere. */
export class ListBusySourcesQuery extends AccountItemQuery<BusySourceView[]> {}

@QueryHandler(ListBusySourcesQuery)
export class ListBusySourcesHandler implements IQueryHandler<ListBusySourcesQuery> {
  constructor(private readonly sources: BusySourceRepository) {}

  async execute({ accountId, id }: ListBusySourcesQuery): Promise<BusySourceView[]> {
    return (await this.sources.ofCalendar(accountId, id)).map(toBusySourceView);
  }
}

/** A source, found under its own calendar only. */
export class GetBusySourceQuery extends Query<BusySourceView> {
  constructor(
    readonly accountId: number,
    readonly calendarId: number,
    readonly id: number,
  ) {
    super();
  }
}

@QueryHandler(GetBusySourceQuery)
export class GetBusySourceHandler implements IQueryHandler<GetBusySourceQuery> {
  constructor(private readonly sources: BusySourceRepository) {}

  async execute({ accountId, calendarId, id }: GetBusySourceQuery): Promise<BusySourceView> {
    return toBusySourceView(await this.sources.inCalendar(accountId, calendarId, id));
  }
}
