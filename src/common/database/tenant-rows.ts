import { type EntityManager, type EntityTarget, In, IsNull, type Repository } from 'typeorm';
import { type DomainError, ForbiddenError, NotFoundError } from '../errors/domain-error';

/** A row that belongs to one account (every catalog and booking table). */
export interface TenantRow {
  id: number;
  accountId: number;
  deletedAt?: Date | null;
}

/** The account's live rows (soft-deleted ones left out), by id: what a list endpoint shows. */
export function listOwned<T extends TenantRow>(
  repository: Repository<T>,
  accountId: number,
): Promise<T[]> {
  return repository.find({
    where: { accountId, deletedAt: IsNull() } as never,
    order: { id: 'ASC' } as never,
  });
}

/**
 * The account's row `id`, as the contract's access rule reads: another account's row is 403
 * `forbidden` (it exists, just not for this caller), a row that exists nowhere is 404. A soft-deleted
 * row of the account is 404 too unless `includeDeleted`. `forUpdate` (inside a transaction) locks
 * the row, so that concurrent updates replacing its links whole run one after the other.
 */
export async function findOwned<T extends TenantRow>(
  repository: Repository<T>,
  accountId: number,
  id: number,
  options: { includeDeleted?: boolean; forUpdate?: boolean } = {},
): Promise<T> {
  const row = await repository.findOne({
    where: { id } as never,
    ...(options.forUpdate ? { lock: { mode: 'pessimistic_write' as const } } : {}),
  });
  if (!row) throw new NotFoundError();
  if (row.accountId !== accountId) throw new ForbiddenError();
  if (row.deletedAt && !options.includeDeleted) throw new NotFoundError();
  return row;
}

/**
 * Soft delete of the account's row `id` (403 and 404 as findOwned): the row stays for what refers to
 * it, and reads that skip deleted rows no longer see it.
 */
export async function softDeleteOwned<T extends TenantRow>(
  repository: Repository<T>,
  accountId: number,
  id: number,
): Promise<void> {
  const row = await findOwned(repository, accountId, id);
  await repository.update({ id: row.id } as never, { deletedAt: new Date() } as never);
}

/**
 * Checks ids a request refers to (a type's `calendarIDs`, a booking's `addonIDs`): each must be a
 * live row of the account. An id that exists nowhere (or was deleted) gives the caller's 400 error;
 * another account's gives 403. Returns the rows in the order of the distinct ids given.
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
