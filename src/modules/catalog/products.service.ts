import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { groupBy } from '../../common/collections/group-by';
import { findOwned, listOwned, softDeleteOwned } from '../../common/database/tenant-rows';
import { toCents } from '../../common/money/money';
import { checkAppointmentTypeIds, liveTypeLinks } from './appointment-type-references';
import { GiftTypeCountsError, TypeCountsRequiredError } from './catalog.errors';
import { Product, ProductAppointmentType, type ProductKind } from './product.entity';
import type { CreateProductRequest, TypeCounts, UpdateProductRequest } from './product.requests';
import { type ProductView, toProductView } from './product.view';

/**
 * The counts a product of `kind` is to have, or undefined to keep the stored ones. Packages and
 * subscriptions give appointments, so they need at least one type; a gift certificate is worth its
 * price and has none (turning a package into a gift drops its counts). `previousKind` is the stored
 * kind on update: a gift's (empty) counts cannot be kept by a kind that needs some.
 */
function countsFor(
  kind: ProductKind,
  given: TypeCounts | undefined,
  previousKind?: ProductKind,
): TypeCounts | undefined {
  if (kind === 'gift') {
    // `{}` is accepted: it is what a gift shows, so a read product can be sent back as it is.
    if (given && Object.keys(given).length > 0) {
      throw new GiftTypeCountsError();
    }
    return {};
  }
  const keepStored = given === undefined && previousKind !== undefined && previousKind !== 'gift';
  if (keepStored) return undefined;
  if (!given || Object.keys(given).length === 0) {
    throw new TypeCountsRequiredError(kind);
  }
  return given;
}

@Injectable()
export class ProductsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(accountId: number): Promise<ProductView[]> {
    const manager = this.dataSource.manager;
    const products = await listOwned(manager.getRepository(Product), accountId);
    const ids = products.map((product) => product.id);
    const links = groupBy(
      await liveTypeLinks(manager, ProductAppointmentType, 'productId', accountId, ids),
      (link) => link.productId,
    );
    return products.map((product) => toProductView(product, links.get(product.id) ?? []));
  }

  async get(accountId: number, id: number): Promise<ProductView> {
    const manager = this.dataSource.manager;
    const product = await findOwned(manager.getRepository(Product), accountId, id);
    return this.view(manager, product);
  }

  async create(accountId: number, request: CreateProductRequest): Promise<ProductView> {
    const counts = countsFor(request.type, request.appointmentTypeCounts) ?? {};
    return this.dataSource.transaction(async (tx) => {
      await checkAppointmentTypeIds(tx, accountId, typeIdsOf(counts));
      const now = new Date();
      const product = await tx.save(
        tx.create(Product, {
          accountId,
          name: request.name,
          description: request.description ?? '',
          priceCents: toCents(request.price),
          kind: request.type,
          hidden: request.hidden ?? false,
          expiresDays: request.expires ?? null,
          deletedAt: null,
          createdAt: now,
          updatedAt: now,
        }),
      );
      await this.replaceCounts(tx, product.id, counts);
      return this.view(tx, product);
    });
  }

  async update(accountId: number, id: number, request: UpdateProductRequest): Promise<ProductView> {
    return this.dataSource.transaction(async (tx) => {
      const product = await findOwned(tx.getRepository(Product), accountId, id, {
        forUpdate: true,
      });
      const kind = request.type ?? product.kind;
      const counts = countsFor(kind, request.appointmentTypeCounts, product.kind);
      if (counts) await checkAppointmentTypeIds(tx, accountId, typeIdsOf(counts));

      if (request.name !== undefined) product.name = request.name;
      if (request.description !== undefined) product.description = request.description;
      if (request.price !== undefined) product.priceCents = toCents(request.price);
      if (request.hidden !== undefined) product.hidden = request.hidden;
      if (request.expires !== undefined) product.expiresDays = request.expires;
      product.kind = kind;
      product.updatedAt = new Date();
      await tx.save(product);
      if (counts) await this.replaceCounts(tx, product.id, counts);
      return this.view(tx, product);
    });
  }

  /** Soft delete: certificates and orders issued from the product keep referring to it. */
  async delete(accountId: number, id: number): Promise<void> {
    await softDeleteOwned(this.dataSource.getRepository(Product), accountId, id);
  }

  private async replaceCounts(tx: EntityManager, productId: number, counts: TypeCounts) {
    await tx.delete(ProductAppointmentType, { productId });
    const rows = Object.entries(counts).map(([typeId, count]) => ({
      productId,
      appointmentTypeId: Number(typeId),
      count,
    }));
    if (rows.length > 0) await tx.insert(ProductAppointmentType, rows);
  }

  private async view(manager: EntityManager, product: Product): Promise<ProductView> {
    const links = await liveTypeLinks(
      manager,
      ProductAppointmentType,
      'productId',
      product.accountId,
      [product.id],
    );
    return toProductView(product, links);
  }
}

function typeIdsOf(counts: TypeCounts): number[] {
  return Object.keys(counts).map(Number);
}
