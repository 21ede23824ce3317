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

const texts = new Map<LockedTable, string>();

/**
 * The one way to lock rows (docs/architecture.md, "Locks are writes"): the rows `ids` of `table`
 * are written (`lock_version + 1`), in ascending id order, and stay locked until the transaction
 * ends. On one server this is `SELECT … FOR UPDATE`'s exclusive lock, at the cost of a row write.
 * On a Galera cluster it is also what makes the lock hold across nodes: a lock taken by a read is
 * local to its node, while a written row is in the transaction's write set, which the cluster
 * certifies at commit. Of two transactions that wrote one row on two nodes, one commits and the
 * other fails with 1213, and UnitOfWork runs it again; the rerun reads what the winner committed.
 *
 * Write first, then read: at READ COMMITTED each statement after the lock reads what was committed
 * before it was granted, the winner's rows included (a remote write set applied on this node
 * takes the row's lock, or aborts the local holder of it, "brute force", so no commit of the row
 * slips between the lock and the reads unseen). Answers how many of the rows exist.
 */
export async function lockRows(
  tx: EntityManager,
  table: LockedTable,
  ids: readonly number[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  let text = texts.get(table);
  if (text === undefined) {
    text = `UPDATE ${table} SET lock_version = lock_version + 1 WHERE id IN (?) ORDER BY id`;
    texts.set(table, text);
  }
  const result = await queryPrepared<{ affectedRows: number }>(tx, text, [sorted]);
  return result.affectedRows;
}
