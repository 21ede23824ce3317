import { Column } from 'typeorm';
import { TenantEntity } from '../../common/database/tenant-entity';

/** The columns every catalog table shares: an account's row, soft-deleted for what refers to it. */
export abstract class CatalogRow extends TenantEntity {
  @Column({ name: 'deleted_at', type: 'datetime', precision: 3, nullable: true })
  deletedAt!: Date | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}

/** A new live row of the account with `columns`, created and updated now. */
export function newCatalogRow<T extends CatalogRow>(
  entity: new () => T,
  accountId: number,
  columns: Omit<T, keyof CatalogRow>,
): T {
  const now = new Date();
  return Object.assign(new entity(), columns, {
    accountId,
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
  });
}

/** Copies onto `row` each of `keys` that `changes` gives: a partial update keeps the others. */
export function copyGiven<T, K extends keyof T>(
  row: T,
  changes: { readonly [P in K]?: T[P] },
  keys: readonly K[],
): void {
  for (const key of keys) {
    const value = changes[key];
    if (value !== undefined) row[key] = value;
  }
}
