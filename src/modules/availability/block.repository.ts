import { Injectable } from '@nestjs/common';
import { type EntityManager, In } from 'typeorm';
import { RepositoryOf } from '../../common/database/tenant-repository';
import { BusyKind, Calendar, markBusyKind } from '../catalog';
import { Block } from './block.entity';
import { namedCalendars } from './slot-context.repository';

@Injectable()
export class BlockRepository extends RepositoryOf(Block) {
  namedCalendars(accountId: number, ids: readonly number[]): Promise<Calendar[]> {
    return namedCalendars(this.dataSource.manager, accountId, ids);
  }

  /** The calendars of these ids, deleted ones included: a block is shown in its calendar's zone. */
  calendars(ids: number[]): Promise<Calendar[]> {
    return this.dataSource.manager.findBy(Calendar, { id: In(ids) });
  }

  /**
   * The account's blocks that overlap `[from, until)` (either open), earliest first, at most `max`:
   * on the calendars given, else on any live calendar. The bounds use the indexes: (calendar_id,
   * ends_at) when calendars are named, else (account_id, starts_at).
   */
  overlapping(
    accountId: number,
    calendarIds: number[],
    { from, until }: { from?: Date; until?: Date },
    max: number,
  ): Promise<Block[]> {
    const rows = this.rows()
      .createQueryBuilder('b')
      .where('b.account_id = :accountId', { accountId })
      .orderBy('b.starts_at', 'ASC')
      .addOrderBy('b.id', 'ASC')
      // limit, not take: the join matches one calendar per block, so LIMIT counts blocks.
      .limit(max);
    if (calendarIds.length > 0)
      rows.andWhere('b.calendar_id IN (:...calendarIds)', { calendarIds });
    else rows.innerJoin(Calendar, 'c', 'c.id = b.calendar_id AND c.deleted_at IS NULL');
    if (from) rows.andWhere('b.ends_at > :from', { from });
    if (until) rows.andWhere('b.starts_at < :until', { until });
    return rows.getMany();
  }

  /** Inserts the block, its calendar's bit of busy time marked first (markBusyKind). */
  async insert(tx: EntityManager, block: Block): Promise<Block> {
    await markBusyKind(tx, BusyKind.blocks, block.calendarId, block.accountId);
    return this.save(block, tx);
  }

  async delete(tx: EntityManager, id: number): Promise<void> {
    await this.rows(tx).delete({ id });
  }
}
