import { Injectable, type Type } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DataSource,
  type EntityManager,
  type EntityTarget,
  IsNull,
  type Repository,
} from 'typeorm';
import type { DomainError } from '../errors/domain-error';
import { type TenantRow, findOwned, findReferenced } from './tenant-rows';

/**
 * The persistence every account-owned table shares (the access rule in tenant-rows.ts), extended
 * by a module's `<thing>.repository.ts`. Each method works through `tx` when given (a UnitOfWork).
 */
export abstract class TenantRepository<T extends TenantRow> {
  protected constructor(
    protected readonly dataSource: DataSource,
    protected readonly entity: EntityTarget<T>,
  ) {}

  protected rows(tx?: EntityManager): Repository<T> {
    return (tx ?? this.dataSource.manager).getRepository(this.entity);
  }

  /** The account's live rows, by id: what a list endpoint shows. */
  list(accountId: number, tx?: EntityManager): Promise<T[]> {
    return this.rows(tx).find({
      where: { accountId, deletedAt: IsNull() } as never,
      order: { id: 'ASC' } as never,
    });
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

  /** Soft delete (403 and 404 as find): the row stays for what refers to it. */
  async softDelete(accountId: number, id: number, tx?: EntityManager): Promise<void> {
    const rows = this.rows(tx);
    const row = await findOwned(rows, accountId, id);
    await rows.update({ id: row.id } as never, { deletedAt: new Date() } as never);
  }
}

/** The base of a table's repository with no constructor of its own: TenantRepository over `entity`. */
export function RepositoryOf<T extends TenantRow>(entity: Type<T>) {
  @Injectable()
  class OfEntity extends TenantRepository<T> {
    constructor(@InjectDataSource() dataSource: DataSource) {
      super(dataSource, entity);
    }
  }
  return OfEntity;
}
