import { Inject, type Type } from '@nestjs/common';
import { Command, type ICommandHandler, type IQueryHandler, Query } from '@nestjs/cqrs';
import type { TenantRepository } from '../database/tenant-repository';
import type { TenantRow } from '../database/tenant-rows';
import { UnitOfWork } from '../database/unit-of-work';

/*
 * The shapes most commands and queries of an account's things share. A module names its own
 * message by extending one (`class ListAddonsQuery extends AccountQuery<AddonView[]> {}`): the
 * buses dispatch by that class, so each stays a type of its own with its own handler.
 */

export abstract class AccountQuery<R> extends Query<R> {
  constructor(readonly accountId: number) {
    super();
  }
}

export abstract class AccountItemQuery<R> extends Query<R> {
  constructor(
    readonly accountId: number,
    readonly id: number,
  ) {
    super();
  }
}

/** A write for the account from a validated request (a create, mostly). */
export abstract class AccountCommand<Request, R> extends Command<R> {
  constructor(
    readonly accountId: number,
    readonly request: Request,
  ) {
    super();
  }
}

/** A write to one of the account's things, by id, from a validated request (an update). */
export abstract class AccountItemCommand<Request, R> extends Command<R> {
  constructor(
    readonly accountId: number,
    readonly id: number,
    readonly request: Request,
  ) {
    super();
  }
}

/** A write to one of the account's things that needs nothing but its id (a delete). */
export abstract class AccountItemAction<R = void> extends Command<R> {
  constructor(
    readonly accountId: number,
    readonly id: number,
  ) {
    super();
  }
}

/**
 * How a list or a read shows the account's rows: all at once, so that a view that needs more (links,
 * a calendar) reads it for every row in one go.
 */
export type RowViews<T, R, V> = (rows: T[], repository: R, accountId: number) => Promise<V[]> | V[];

/** RowViews that show each row on its own: `each(toLabelView)`. */
export function each<T, V>(view: (row: T) => V): (rows: T[]) => V[] {
  return (rows) => rows.map((row) => view(row));
}

/**
 * The handler of a plain list: the account's live rows by id, shown as `views` shows them.
 * Used as `@QueryHandler(ListAddonsQuery) class ListAddonsHandler extends ListHandler(…) {}`.
 */
export function ListHandler<T extends TenantRow, R extends TenantRepository<T>, V>(
  repository: Type<R>,
  views: RowViews<T, R, V>,
): Type<IQueryHandler<AccountQuery<V[]>, V[]>> {
  class List implements IQueryHandler<AccountQuery<V[]>, V[]> {
    constructor(@Inject(repository) private readonly rows: R) {}

    async execute({ accountId }: AccountQuery<V[]>): Promise<V[]> {
      return views(await this.rows.list(accountId), this.rows, accountId);
    }
  }
  return List;
}

/** The handler of a plain read by id: 404, or 403 for another account's (TenantRepository.find). */
export function GetHandler<T extends TenantRow, R extends TenantRepository<T>, V>(
  repository: Type<R>,
  views: RowViews<T, R, V>,
): Type<IQueryHandler<AccountItemQuery<V>, V>> {
  class Get implements IQueryHandler<AccountItemQuery<V>, V> {
    constructor(@Inject(repository) private readonly rows: R) {}

    async execute({ accountId, id }: AccountItemQuery<V>): Promise<V> {
      const [view] = await views([await this.rows.find(accountId, id)], this.rows, accountId);
      return view;
    }
  }
  return Get;
}

/** The handler of a plain soft delete, in a unit of work (TenantRepository.softDelete). */
export function SoftDeleteHandler<T extends TenantRow>(
  repository: Type<TenantRepository<T>>,
): Type<ICommandHandler<AccountItemAction>> {
  class SoftDelete implements ICommandHandler<AccountItemAction> {
    constructor(
      @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
      @Inject(repository) private readonly rows: TenantRepository<T>,
    ) {}

    execute({ accountId, id }: AccountItemAction): Promise<void> {
      return this.unitOfWork.run(accountId, (tx) => this.rows.softDelete(accountId, id, tx));
    }
  }
  return SoftDelete;
}
