import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, MoreThan } from 'typeorm';
import { insertRows } from '../../common/database/insert-rows';
import { queryPrepared } from '../../common/database/prepared';
import { NotFoundError } from '../../common/errors/domain-error';
import type { Account } from '../accounts';
import {
  type HoldOrigin,
  type SlotContext,
  type SlotRequest,
  SlotHold,
  resolveSlotContext,
} from '../availability';
import { lockRows } from '../../common/database/row-locks';

/**
 * The slot holds' statements (the table is availability's: a live hold is busy time). Each cap on
 * live holds is checked in the hold's transaction after claimAccountHolds: two holds of one account
 * are counted one after the other, and no race passes a cap.
 */
@Injectable()
export class SlotHoldRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The type, calendars and addons a hold asks for, read before its transaction. */
  slotContext(account: Account, request: SlotRequest): Promise<SlotContext> {
    return resolveSlotContext(this.dataSource.manager, account, request);
  }

  /** The account's live hold `id`: 404 once ended, and for another account's (as if none). */
  async live(
    accountId: number,
    id: number,
    tx: EntityManager = this.dataSource.manager,
    forUpdate = false,
  ): Promise<SlotHold> {
    if (forUpdate) await lockRows(tx, 'slot_holds', [id]);
    const hold = await tx.findOne(SlotHold, { where: { id, accountId } });
    if (!hold || hold.expiresAt.getTime() <= Date.now()) throw new NotFoundError();
    return hold;
  }

  async insert(tx: EntityManager, hold: SlotHold): Promise<number> {
    return Number(await insertRows(tx, SlotHold, [hold]));
  }

  async extend(tx: EntityManager, id: number, expiresAt: Date): Promise<void> {
    await tx.update(SlotHold, { id }, { expiresAt });
  }

  /** Deletes the account's live hold `id`; whether there was one. */
  async release(tx: EntityManager, accountId: number, id: number, now: Date): Promise<boolean> {
    const { affected } = await tx.delete(SlotHold, { id, accountId, expiresAt: MoreThan(now) });
    return Boolean(affected);
  }

  /** Deletes up to `limit` expired holds of any account, the oldest first; how many. */
  async deleteExpired(tx: EntityManager, now: Date, limit: number): Promise<number> {
    const result = await tx.query<{ affectedRows: number }>(
      'DELETE FROM slot_holds WHERE expires_at <= ? ORDER BY expires_at LIMIT ?',
      [now, limit],
    );
    return result.affectedRows;
  }

  /**
   * Writes the account's `hold_claims` first in a hold's transaction: the account's holds queue on
   * it (conflict and retry, on a multi-primary cluster), so each counts every hold committed before
   * it. Taken before any calendar's lock; nothing takes them the other way round.
   */
  async claimAccountHolds(tx: EntityManager, accountId: number): Promise<void> {
    await queryPrepared(tx, 'UPDATE accounts SET hold_claims = hold_claims + 1 WHERE id = ?', [
      accountId,
    ]);
  }

  /** The account's live holds of one origin: how many, and when the first of them ends. */
  async liveHolds(
    tx: EntityManager,
    accountId: number,
    origin: HoldOrigin,
    now: number,
  ): Promise<{ count: number; firstEnd: number | null }> {
    const [row] = await queryPrepared<{ n: number | string; firstEnd: Date | null }[]>(
      tx,
      `SELECT COUNT(*) AS n, MIN(expires_at) AS firstEnd FROM slot_holds
        WHERE account_id = ? AND origin = ? AND expires_at > ?`,
      [accountId, origin, new Date(now)],
    );
    return {
      count: Number(row.n),
      firstEnd: row.firstEnd === null ? null : new Date(row.firstEnd).getTime(),
    };
  }

  /** The account's live page holds made from one network. */
  async liveNetworkHolds(
    tx: EntityManager,
    accountId: number,
    addressHash: Buffer,
    now: number,
  ): Promise<number> {
    const [row] = await queryPrepared<{ n: number | string }[]>(
      tx,
      `SELECT COUNT(*) AS n FROM slot_holds
        WHERE account_id = ? AND origin = 'page' AND expires_at > ? AND address_hash = ?`,
      [accountId, new Date(now), addressHash],
    );
    return Number(row.n);
  }

  /** Ends the visitor's live page holds of the account: a new one replaces them. */
  async releaseVisitorHolds(
    tx: EntityManager,
    accountId: number,
    visitorHash: Buffer,
    now: number,
  ): Promise<void> {
    await queryPrepared(
      tx,
      `DELETE FROM slot_holds
        WHERE account_id = ? AND origin = 'page' AND expires_at > ? AND visitor_hash = ?`,
      [accountId, new Date(now), visitorHash],
    );
  }
}
