import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { findOwned, findReferenced } from '../../common/database/tenant-rows';
import { parseDatetime } from '../../common/time/datetimes';
import type { Account } from '../accounts';
import { BusyKind, Calendar, InvalidCalendarError, insertBusyRow } from '../catalog';
import { InvalidBlockDatetimeError, InvalidBlockTimeError } from './availability.errors';
import { Block } from './block.entity';
import {
  type CreateBlockRequest,
  DEFAULT_BLOCK_LIST_MAX,
  type ListBlocksQuery,
} from './block.requests';
import { type BlockView, toBlockView } from './block.view';
import { localDateBounds } from './query-spans';

@Injectable()
export class BlocksService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The blocks that overlap `[minDate 00:00, maxDate + 1 00:00)`, earliest first. The dates are read
   * in the zone of the one calendar asked for, else in the account's. Blocks of deleted calendars
   * are left out (as the calendar is left out of every list).
   */
  async list(account: Account, query: ListBlocksQuery): Promise<BlockView[]> {
    const tx = this.dataSource.manager;
    const calendars = await findReferenced(
      tx,
      Calendar,
      account.id,
      query.calendarID ?? [],
      (id: number | string) => new InvalidCalendarError(id),
    );
    const zone = calendars.length === 1 ? calendars[0].timezone : account.timezone;
    const { from, until } = localDateBounds(zone, query);

    // The bounds use the indexes: (calendar_id, ends_at) when calendars are named, else
    // (account_id, starts_at).
    const rows = tx
      .createQueryBuilder(Block, 'b')
      .where('b.account_id = :accountId', { accountId: account.id })
      .orderBy('b.starts_at', 'ASC')
      .addOrderBy('b.id', 'ASC')
      // limit, not take: the join matches one calendar per block, so LIMIT counts blocks.
      .limit(query.max ?? DEFAULT_BLOCK_LIST_MAX);
    if (calendars.length > 0)
      rows.andWhere('b.calendar_id IN (:...calendarIds)', {
        calendarIds: calendars.map((c) => c.id),
      });
    else rows.innerJoin(Calendar, 'c', 'c.id = b.calendar_id AND c.deleted_at IS NULL');
    if (from) rows.andWhere('b.ends_at > :from', { from });
    if (until) rows.andWhere('b.starts_at < :until', { until });
    const blocks = await rows.getMany();

    const known = new Map(calendars.map((c) => [c.id, c]));
    const missing = [...new Set(blocks.map((b) => b.calendarId))].filter((id) => !known.has(id));
    if (missing.length > 0)
      for (const calendar of await tx.findBy(Calendar, { id: In(missing) }))
        known.set(calendar.id, calendar);
    return blocks.map((block) => toBlockView(block, known.get(block.calendarId)!));
  }

  async get(accountId: number, id: number): Promise<BlockView> {
    const block = await findOwned(this.dataSource.getRepository(Block), accountId, id);
    return toBlockView(block, await this.calendarOf(block));
  }

  async create(accountId: number, request: CreateBlockRequest): Promise<BlockView> {
    const tx = this.dataSource.manager;
    const [calendar] = await findReferenced(
      tx,
      Calendar,
      accountId,
      [request.calendarID],
      (id: number | string) => new InvalidCalendarError(id),
    );
    const startsAt = readDatetime('start', request.start, calendar.timezone);
    const endsAt = readDatetime('end', request.end, calendar.timezone);
    if (endsAt < startsAt) throw new InvalidBlockTimeError(request.start, request.end, 'before');
    if (endsAt.getTime() === startsAt.getTime())
      throw new InvalidBlockTimeError(request.start, request.end, 'the same as');
    const block = await insertBusyRow(this.dataSource, BusyKind.blocks, calendar, Block, {
      accountId,
      calendarId: calendar.id,
      startsAt,
      endsAt,
      notes: request.notes ?? '',
      createdAt: new Date(),
    });
    return toBlockView(block, calendar);
  }

  /** A hard delete: nothing refers to a block. */
  async delete(accountId: number, id: number): Promise<void> {
    const block = await findOwned(this.dataSource.getRepository(Block), accountId, id);
    await this.dataSource.manager.delete(Block, { id: block.id });
  }

  /** The block's calendar, deleted or not: its zone is the one the block is shown in. */
  private async calendarOf(block: Block): Promise<Calendar> {
    return this.dataSource.manager.findOneByOrFail(Calendar, { id: block.calendarId });
  }
}

/**
 * `value` as a moment, read in `zone` unless it carries an offset; of the years parseDatetime takes
 * (1900–2999), so that a far-off typo is refused rather than stored.
 */
function readDatetime(attribute: 'start' | 'end', value: string, zone: string): Date {
  const parsed = parseDatetime(value, zone);
  if (parsed.kind !== 'moment') throw new InvalidBlockDatetimeError(attribute, value);
  return parsed.moment.toJSDate();
}
