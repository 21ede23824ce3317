import { type EntityManager, type EntityTarget, In, type Repository } from 'typeorm';
import { lockRows, lockedTable } from './row-locks';
import { type DomainError, ForbiddenError, NotFoundError } from '../errors/domain-error';

/** A row that belongs to one account (every catalog and booking table). */
export interface TenantRow {
  id: number;
  accountId: number;
  deletedAt?: Date | null;
}

/**
 * The account's row `id`, as the contract's access rule reads: another account's row is 403
 * `forbidden`, a row that exists nowhere (or soft-deleted, unless `includeDeleted`) is 404.
 * `forUpdate` (in a transaction) locks the row (lockRows): concurrent updates replacing its links
 * whole queue.
 */
export async function findOwned<T extends TenantRow>(
  repository: Repository<T>,
  accountId: number,
  id: number,
  options: { includeDeleted?: boolean; forUpdate?: boolean } = {},
): Promise<T> {
  if (options.forUpdate) await lockRows(repository.manager, lockedTable(repository), [id]);
  const row = await repository.findOne({ where: { id } as never });
  if (!row) throw new NotFoundError();
  if (row.accountId !== accountId) throw new ForbiddenError();
  if (row.deletedAt && !options.includeDeleted) throw new NotFoundError();
  return row;
}

/**
 * Checks ids a request refers to (a type's `calendarIDs`): each must be a live row of the account.
 * One that exists nowhere (or was deleted) is the caller's 400 error, another account's 403.
 * Answers the rows in the order of the distinct ids given.
 */
export async function findReferenced<T extends TenantRow>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  accountId: number,
  ids: readonly number[],
  missing: (id: number) => DomainError,
): Promise<T[]> {
  const distinct = [...new Set(ids)];
  if (distinct.length === 0) return [];
  const rows = await manager.find(entity, { where: { id: In(distinct) } as never });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return distinct.map((id) => {
    const row = byId.get(id);
    if (row && row.accountId !== accountId) throw new ForbiddenError();
    if (!row || row.deletedAt) throw missing(id);
    return row;
  });
}
