import type { EntityManager } from 'typeorm';

/** Where a statement runs: on the pool, or inside a transaction. */
export type Db = Pick<EntityManager, 'query'>;

interface ResultHeader {
  affectedRows: number;
}

/** Free of any lease at the time given as its parameter: never leased, given back, or run out. */
export const NOT_LEASED_AT = '(leased_until IS NULL OR leased_until <= ?)';

/** A claimed row; the lease's end is the claim's token: a late holder's writes match nothing. */
export interface Held {
  id: string;
  lease: Date;
}

/** The assignments of a statement that ends a claim: the caller's, then the lease's own. */
function ending(set: string): string {
  return `${set === '' ? '' : `${set}, `}leased_until = NULL, updated_at = ?`;
}

export interface LeasedRowsOptions {
  table: string;
  /** SQL that makes a row claimable besides its lease; its `?` take the values a claim passes. */
  claimable: string;
  /** How long a claim owns its row: longer than an attempt and its recording can take. */
  leaseMs: number;
}

/**
 * A table whose rows an attempt claims (`id`, `leased_until`, `updated_at`): of two jobs of a row
 * at most one acts at a time, with no transaction held. One statement a method (claimSome two).
 * Times are the caller's clock, never NOW() (see data-source-options.ts).
 */
export class LeasedRows {
  private readonly claimable: string;
  /** The last lease given: each claim's is later, so that no two claims of this process share one. */
  private lastLease = 0;

  constructor(private readonly options: LeasedRowsOptions) {
    this.claimable = `${options.claimable} AND ${NOT_LEASED_AT}`;
  }

  private nextLease(now: Date): Date {
    this.lastLease = Math.max(now.getTime() + this.options.leaseMs, this.lastLease + 1);
    return new Date(this.lastLease);
  }

  /** Claims one row with one UPDATE (its affected rows decide a race): the lease, or null. */
  async claimOne(db: Db, id: string, now: Date, params: unknown[] = []): Promise<Date | null> {
    const lease = this.nextLease(now);
    const header: ResultHeader = await db.query(
      `UPDATE ${this.options.table} SET leased_until = ?, updated_at = ?
        WHERE id = ? AND ${this.claimable}`,
      [lease, now, id, ...params, now],
    );
    return header.affectedRows === 0 ? null : lease;
  }

  /**
   * Claims the claimable rows with one lease, in the caller's transaction: locked and read first,
   * so that the UPDATE takes exactly those. InnoDB locks `id IN (…)` in id order, as every batch
   * does, so two batches never wait on each other in a cycle.
   */
  async claimSome(
    tx: Db,
    ids: string[],
    now: Date,
    params: unknown[] = [],
  ): Promise<{ lease: Date; claimed: string[] }> {
    const lease = this.nextLease(now);
    const rows: { id: number | string }[] = await tx.query(
      `SELECT id FROM ${this.options.table} WHERE id IN (?) AND ${this.claimable} FOR UPDATE`,
      [ids, ...params, now],
    );
    const claimed = rows.map((row) => String(row.id));
    if (claimed.length > 0) {
      await tx.query(
        `UPDATE ${this.options.table} SET leased_until = ?, updated_at = ? WHERE id IN (?)`,
        [lease, now, claimed],
      );
    }
    return { lease, claimed };
  }

  /** Ends the claim with `set` (SQL assignments, `params`) while it holds; answers whether. */
  async finish(db: Db, held: Held, at: Date, set = '', params: unknown[] = []): Promise<boolean> {
    const header: ResultHeader = await db.query(
      `UPDATE ${this.options.table} SET ${ending(set)} WHERE id = ? AND leased_until = ?`,
      [...params, at, held.id, held.lease],
    );
    return header.affectedRows > 0;
  }

  /** Gives a claim back unchanged, so that another attempt can claim the row at once. */
  release(db: Db, held: Held, at = new Date()): Promise<boolean> {
    return this.finish(db, held, at);
  }

  /** Deletes the row, only while the claim still holds. Answers whether it did. */
  async deleteHeld(db: Db, held: Held): Promise<boolean> {
    const header: ResultHeader = await db.query(
      `DELETE FROM ${this.options.table} WHERE id = ? AND leased_until = ?`,
      [held.id, held.lease],
    );
    return header.affectedRows > 0;
  }

  /** Locks the claims' rows in the caller's transaction: whether each holds (see finishLocked). */
  async lockHeld(tx: Db, claims: Held[]): Promise<boolean[]> {
    const rows: { id: number | string; leased_until: Date | null }[] = await tx.query(
      `SELECT id, leased_until FROM ${this.options.table} WHERE id IN (?) FOR UPDATE`,
      [claims.map((held) => held.id)],
    );
    const leases = new Map(rows.map((row) => [String(row.id), row.leased_until?.getTime()]));
    return claims.map((held) => leases.get(held.id) === held.lease.getTime());
  }

  /** Ends claims that lockHeld found holding, in the same transaction, as finish does. */
  async finishLocked(
    tx: Db,
    ids: string[],
    at: Date,
    set = '',
    params: unknown[] = [],
  ): Promise<void> {
    await tx.query(`UPDATE ${this.options.table} SET ${ending(set)} WHERE id IN (?)`, [
      ...params,
      at,
      ids,
    ]);
  }
}
