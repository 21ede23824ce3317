import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { AccountItemQuery } from '../../common/cqrs/account-messages';
import type { Account } from '../accounts';
import { BlockRepository } from './block.repository';
import { DEFAULT_BLOCK_LIST_MAX, type ListBlocksRequest } from './block.requests';
import { type BlockView, toBlockView } from './block.view';
import { localDateBounds } from './query-spans';

/**
 * The blocks that overlap `[minDate 00:00, maxDate + 1 00:00)` (in the zone of the one calendar
 * asked for, else the account's), earliest first; none of a deleted calendar.
 */
export class ListBlocksQuery extends Query<BlockView[]> {
  constructor(
    readonly account: Account,
    readonly request: ListBlocksRequest,
  ) {
    super();
  }
}

@QueryHandler(ListBlocksQuery)
export class ListBlocksHandler implements IQueryHandler<ListBlocksQuery> {
  constructor(private readonly blocks: BlockRepository) {}

  async execute({ account, request }: ListBlocksQuery): Promise<BlockView[]> {
    const calendars = await this.blocks.namedCalendars(account.id, request.calendarID ?? []);
    const zone = calendars.length === 1 ? calendars[0].timezone : account.timezone;
    const blocks = await this.blocks.overlapping(
      account.id,
      calendars.map((c) => c.id),
      localDateBounds(zone, request),
      request.max ?? DEFAULT_BLOCK_LIST_MAX,
    );
    const known = new Map(calendars.map((c) => [c.id, c]));
    const missing = [...new Set(blocks.map((b) => b.calendarId))].filter((id) => !known.has(id));
    if (missing.length > 0)
      for (const calendar of await this.blocks.calendars(missing)) known.set(calendar.id, calendar);
    return blocks.map((block) => toBlockView(block, known.get(block.calendarId)!));
  }
}

export class GetBlockQuery extends AccountItemQuery<BlockView> {}

@QueryHandler(GetBlockQuery)
export class GetBlockHandler implements IQueryHandler<GetBlockQuery> {
  constructor(private readonly blocks: BlockRepository) {}

  /** In its calendar's zone, deleted or not. */
  async execute({ accountId, id }: GetBlockQuery): Promise<BlockView> {
    const block = await this.blocks.find(accountId, id);
    const [calendar] = await this.blocks.calendars([block.calendarId]);
    return toBlockView(block, calendar);
  }
}
