import type { EntityManager } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import type { HoldOrigin } from '../availability';

/*
 * The caps on live holds (docs/api.md, Slot holds; docs/pages.md, Holds from the pages) and the SQL
 * they read. Each is checked in the hold's transaction after claimAccountHolds, so two holds of one
 * account are counted one after the other and a cap is never passed by a race.
 */

interface Changed {
  affectedRows: number;
}

/**
 * Writes the account's row (its `hold_claims` counter) first thing in a hold's transaction: every
 * hold of the account writes it, so they queue on it (on a multi-primary cluster, they conflict and
 * one is retried), and what each then counts includes every hold committed before it. Taken before
 * any calendar's lock; nothing takes them the other way round.
 */
export async function claimAccountHolds(tx: EntityManager, accountId: number): Promise<void> {
  await queryPrepared<Changed>(
    tx,
    'UPDATE accounts SET hold_claims = hold_claims + 1 WHERE id = ?',
    [accountId],
  );
}

/** The account's live holds of one origin: how many, and when the first of them ends. */
export async function liveHolds(
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
export async function liveNetworkHolds(
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
export async function releaseVisitorHolds(
  tx: EntityManager,
  accountId: number,
  visitorHash: Buffer,
  now: number,
): Promise<void> {
  await queryPrepared<Changed>(
    tx,
    `DELETE FROM slot_holds
      WHERE account_id = ? AND origin = 'page' AND expires_at > ? AND visitor_hash = ?`,
    [accountId, new Date(now), visitorHash],
  );
}
