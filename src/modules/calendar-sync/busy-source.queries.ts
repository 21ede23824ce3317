import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { BusySourceRepository } from './busy-source.repository';
import { type BusySourceView, toBusySourceView } from './busy-source.view';

/**
 * `/calendars/{id}/busy-sources`: another account's calendar is 403, as everywhere (the contract's
 * access rule); a source is found under its own calendar only.
 */
export class ListBusySourcesQuery extends Query<BusySourceView[]> {
  constructor(
    readonly accountId: number,
    readonly calendarId: number,
  ) {
    super();
  }
}

@QueryHandler(ListBusySourcesQuery)
export class ListBusySourcesHandler implements IQueryHandler<ListBusySourcesQuery> {
  constructor(private readonly sources: BusySourceRepository) {}

  async execute({ accountId, calendarId }: ListBusySourcesQuery): Promise<BusySourceView[]> {
    return (await this.sources.ofCalendar(accountId, calendarId)).map(toBusySourceView);
  }
}

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
