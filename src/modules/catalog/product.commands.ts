import { CommandHandler } from '@nestjs/cqrs';
import {
  AccountCommand,
  AccountItemAction,
  AccountItemCommand,
  SoftDeleteHandler,
} from '../../common/cqrs/account-messages';
import { toCents } from '../../common/money/money';
import { checkAppointmentTypeIds } from './appointment-type.repository';
import { GiftTypeCountsError, TypeCountsRequiredError } from './catalog.errors';
import { WriteHandler } from '../../common/cqrs/write-handler';
import { copyGiven, newCatalogRow } from './catalog-row.entity';
import { Product, type ProductKind } from './product.entity';
import { ProductRepository } from './product.repository';
import type { CreateProductRequest, TypeCounts, UpdateProductRequest } from './product.requests';
import { type ProductView, toProductView } from './product.view';

export class CreateProductCommand extends AccountCommand<CreateProductRequest, ProductView> {}

@CommandHandler(CreateProductCommand)
export class CreateProductHandler extends WriteHandler(ProductRepository) {
  execute({ accountId, request }: CreateProductCommand): Promise<ProductView> {
    const counts = countsFor(request.type, request.appointmentTypeCounts) ?? {};
    return this.unitOfWork.run(accountId, async (tx) => {
      await checkAppointmentTypeIds(tx, accountId, typeIdsOf(counts));
      const product = await this.rows.save(
        newCatalogRow(Product, accountId, {
          name: request.name,
          description: request.description ?? '',
          priceCents: toCents(request.price),
          kind: request.type,
          hidden: request.hidden ?? false,
          expiresDays: request.expires ?? null,
        }),
        tx,
      );
      await this.rows.replaceCounts(tx, product.id, counts);
      return toProductView(product, await this.rows.typeLinks(accountId, [product.id], tx));
    });
  }
}

export class UpdateProductCommand extends AccountItemCommand<UpdateProductRequest, ProductView> {}

@CommandHandler(UpdateProductCommand)
export class UpdateProductHandler extends WriteHandler(ProductRepository) {
  execute({ accountId, id, request }: UpdateProductCommand): Promise<ProductView> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const product = await this.rows.find(accountId, id, { forUpdate: true, tx });
      const kind = request.type ?? product.kind;
      const counts = countsFor(kind, request.appointmentTypeCounts, product.kind);
      if (counts) await checkAppointmentTypeIds(tx, accountId, typeIdsOf(counts));

      copyGiven(product, request, ['name', 'description', 'hidden']);
      if (request.price !== undefined) product.priceCents = toCents(request.price);
      if (request.expires !== undefined) product.expiresDays = request.expires;
      product.kind = kind;
      product.updatedAt = new Date();
      await this.rows.save(product, tx);
      if (counts) await this.rows.replaceCounts(tx, product.id, counts);
      return toProductView(product, await this.rows.typeLinks(accountId, [product.id], tx));
    });
  }
}

/** Soft delete: certificates and orders issued from the product keep referring to it. */
export class DeleteProductCommand extends AccountItemAction {}

@CommandHandler(DeleteProductCommand)
export class DeleteProductHandler extends SoftDeleteHandler(ProductRepository) {}

/**
 * The counts a product of `kind` is to have, or undefined to keep the stored ones. Packages and
 * subscriptions need at least one type; a gift has none (a package made a gift drops its counts).
 * `previousKind`, the stored kind on update: a gift's empty counts cannot be kept by another kind.
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

function typeIdsOf(counts: TypeCounts): number[] {
  return Object.keys(counts).map(Number);
}
