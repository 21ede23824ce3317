import { Column, type EntityManager, type ObjectLiteral, type Repository } from 'typeorm';
import { queryPrepared } from './prepared';

/** The tables whose rows serve as locks: each has a `lock_version` column (LockVersionColumn). */
const LOCKED_TABLES = [
  'accounts',
  'enterprises',
  'calendars',
  'appointment_types',
  'appointments',
  'appointment_series',
  'resources',
  'certificates',
  'coupons',
  'orders',
  'products',
  'forms',
  'clients',
  'slot_holds',
  'busy_sources',
  'webhook_subscriptions',
] as const;
export type LockedTable = (typeof LOCKED_TABLES)[number];

/** The table of a repository whose rows are locked by id (findOwned's `forUpdate`). */
export function lockedTable(repository: Repository<ObjectLiteral>): LockedTable {
  const table = repository.metadata.tableName;
  if (!(LOCKED_TABLES as readonly string[]).includes(table))
    throw new Error(`${table} has no lock_version: its rows cannot be locked`);
  return table as LockedTable;
}

/**
 * The column a lock writes: never read, inserted or updated by an entity (its default, 0, on
 * insert), only incremented by lockRows and the other written locks.
 */
export function LockVersionColumn(): PropertyDecorator {
  return Column({
    name: 'lock_version',
    type: 'bigint',
    unsigned: true,
    default: 0,
    select: false,
    insert: false,
    update: false,
  });
}

/**
 * How this process locks (set once at start by CoreModule, configureLocks): by writing the rows on
 * a multi-primary cluster (DB_HOSTS), by reading them `FOR UPDATE` on one server. Both take the
 * same exclusive row lock on one server; only a write holds across the nodes of a Galera cluster,
 * and on one server it costs MariaDB 17% more CPU per booking (bench:booking, A/B) for nothing.
 */
let locksAreWritten = false;

export function configureLocks({ written }: { written: boolean }): void {
  locksAreWritten = written;
}

/** Whether locks are writes in this process (a multi-primary cluster). */
export function locksWrite(): boolean {
  return locksAreWritten;
}

const texts = new Map<string, string>();

/**
 * The statement that locks the rows of `table` matching `where` (SQL naming only that table's
 * columns, with `?` placeholders): an UPDATE of their `lock_version` when locks are written, else a
 * read `FOR UPDATE`, in ascending id order either way.
 */
export function lockStatement(table: LockedTable, where: string): string {
  const key = `${locksAreWritten ? 'w' : 'r'} ${table} ${where}`;
  let text = texts.get(key);
  if (text === undefined) {
    text = locksAreWritten
      ? `UPDATE ${table} SET lock_version = lock_version + 1 WHERE ${where} ORDER BY id`
      : `SELECT id FROM ${table} WHERE ${where} ORDER BY id FOR UPDATE`;
    texts.set(key, text);
  }
  return text;
}

/**
 * The one way to lock rows (docs/architecture.md, "Locks are writes"): the rows `ids` of `table`
 * stay locked, in ascending id order, until the transaction ends. On a Galera cluster the lock is a
 * write (`lock_version + 1`): a lock taken by a read is local to its node, while a written row is
 * in the transaction's write set, which the cluster certifies at commit. Of two transactions that
 * wrote one row on two nodes, one commits and the other fails with 1213, and UnitOfWork runs it
 * again; the rerun reads what the winner committed. On one server, `SELECT … FOR UPDATE` takes the
 * same exclusive lock without the write (configureLocks).
 *
 * Lock first, then read: at READ COMMITTED each statement after the lock reads what was committed
 * before it was granted, the winner's rows included (on a cluster, a remote write set applied on
 * this node takes the row's lock, or aborts the local holder of it, "brute force", so no commit of
 * the row slips between the lock and the reads unseen). Answers how many of the rows exist.
 */
export async function lockRows(
  tx: EntityManager,
  table: LockedTable,
  ids: readonly number[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  return lockedCount(await queryPrepared(tx, lockStatement(table, 'id IN (?)'), [sorted]));
}

/** lockRows by another key: the rows of `table` matching `where` (see lockStatement). */
export async function lockRowsWhere(
  tx: Pick<EntityManager, 'query'>,
  table: LockedTable,
  where: string,
  parameters: unknown[],
): Promise<number> {
  return lockedCount(await tx.query(lockStatement(table, where), parameters));
}

/** How many rows a lock statement locked: an UPDATE's header, or a read's rows. */
function lockedCount(result: unknown): number {
  return Array.isArray(result) ? result.length : (result as { affectedRows: number }).affectedRows;
}
