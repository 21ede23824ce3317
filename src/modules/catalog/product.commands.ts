import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { toCents } from '../../common/money/money';
import { checkAppointmentTypeIds } from './appointment-type.repository';
import { GiftTypeCountsError, TypeCountsRequiredError } from './catalog.errors';
import { Product, type ProductKind } from './product.entity';
import { ProductRepository } from './product.repository';
import type { CreateProductRequest, TypeCounts, UpdateProductRequest } from './product.requests';
import { type ProductView, toProductView } from './product.view';

export class CreateProductCommand extends Command<ProductView> {
  constructor(
    readonly accountId: number,
    readonly request: CreateProductRequest,
  ) {
    super();
  }
}

@CommandHandler(CreateProductCommand)
export class CreateProductHandler implements ICommandHandler<CreateProductCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly products: ProductRepository,
  ) {}

  execute({ accountId, request }: CreateProductCommand): Promise<ProductView> {
    const counts = countsFor(request.type, request.appointmentTypeCounts) ?? {};
    return this.unitOfWork.run(accountId, async (tx) => {
      await checkAppointmentTypeIds(tx, accountId, typeIdsOf(counts));
      const now = new Date();
      const product = await this.products.save(
        Object.assign(new Product(), {
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
        tx,
      );
      await this.products.replaceCounts(tx, product.id, counts);
      return toProductView(product, await this.products.typeLinks(accountId, [product.id], tx));
    });
  }
}

export class UpdateProductCommand extends Command<ProductView> {
  constructor(
    readonly accountId: number,
    readonly id: number,
    readonly request: UpdateProductRequest,
  ) {
    super();
  }
}

@CommandHandler(UpdateProductCommand)
export class UpdateProductHandler implements ICommandHandler<UpdateProductCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly products: ProductRepository,
  ) {}

  execute({ accountId, id, request }: UpdateProductCommand): Promise<ProductView> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const product = await this.products.find(accountId, id, { forUpdate: true, tx });
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
      await this.products.save(product, tx);
      if (counts) await this.products.replaceCounts(tx, product.id, counts);
      return toProductView(product, await this.products.typeLinks(accountId, [product.id], tx));
    });
  }
}

/** Soft delete: certificates and orders issued from the product keep referring to it. */
export class DeleteProductCommand extends Command<void> {
  constructor(
    readonly accountId: number,
    readonly id: number,
  ) {
    super();
  }
}

@CommandHandler(DeleteProductCommand)
export class DeleteProductHandler implements ICommandHandler<DeleteProductCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly products: ProductRepository,
  ) {}

  execute({ accountId, id }: DeleteProductCommand): Promise<void> {
    return this.unitOfWork.run(accountId, (tx) => this.products.softDelete(accountId, id, tx));
  }
}

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

function typeIdsOf(counts: TypeCounts): number[] {
  return Object.keys(counts).map(Number);
}
