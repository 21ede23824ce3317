import type { DataSource, EntityManager, EntityTarget, Repository } from 'typeorm';
import type { DomainError } from '../errors/domain-error';
import {
  type TenantRow,
  findOwned,
  findReferenced,
  listOwned,
  softDeleteOwned,
} from './tenant-rows';

/**
 * The persistence every account-owned table shares (the contract's access rule in tenant-rows.ts):
 * a module's `<thing>.repository.ts` extends it with its own statements. Each method reads and
 * writes through `tx` when given (inside a UnitOfWork), else outside any transaction.
 */
export abstract class TenantRepository<T extends TenantRow> {
  protected constructor(
    protected readonly dataSource: DataSource,
    protected readonly entity: EntityTarget<T>,
  ) {}

  protected rows(tx?: EntityManager): Repository<T> {
    return (tx ?? this.dataSource.manager).getRepository(this.entity);
  }

  /** The account's live rows, by id. */
  list(accountId: number, tx?: EntityManager): Promise<T[]> {
    return listOwned(this.rows(tx), accountId);
  }

  /** The account's row: 404, or 403 for another account's (see findOwned). */
  find(
    accountId: number,
    id: number,
    options: { includeDeleted?: boolean; forUpdate?: boolean; tx?: EntityManager } = {},
  ): Promise<T> {
    return findOwned(this.rows(options.tx), accountId, id, options);
  }

  /** Rows a request refers to by id: each a live row of the account (see findReferenced). */
  referenced(
    accountId: number,
    ids: readonly number[],
    missing: (id: number) => DomainError,
    tx?: EntityManager,
  ): Promise<T[]> {
    return findReferenced(tx ?? this.dataSource.manager, this.entity, accountId, ids, missing);
  }

  /** Inserts or updates the row as given, answering it with its id. */
  save(row: T, tx?: EntityManager): Promise<T> {
    return this.rows(tx).save(row);
  }

  /** Soft delete: the row stays for what refers to it (see softDeleteOwned). */
  softDelete(accountId: number, id: number, tx?: EntityManager): Promise<void> {
    return softDeleteOwned(this.rows(tx), accountId, id);
  }
}
