import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { groupBy } from '../../common/collections/group-by';
import { ProductRepository } from './product.repository';
import { type ProductView, toProductView } from './product.view';

export class ListProductsQuery extends Query<ProductView[]> {
  constructor(readonly accountId: number) {
    super();
  }
}

@QueryHandler(ListProductsQuery)
export class ListProductsHandler implements IQueryHandler<ListProductsQuery> {
  constructor(private readonly products: ProductRepository) {}

  async execute({ accountId }: ListProductsQuery): Promise<ProductView[]> {
    const products = await this.products.list(accountId);
    const links = groupBy(
      await this.products.typeLinks(
        accountId,
        products.map((product) => product.id),
      ),
      (link) => link.productId,
    );
    return products.map((product) => toProductView(product, links.get(product.id) ?? []));
  }
}

export class GetProductQuery extends Query<ProductView> {
  constructor(
    readonly accountId: number,
    readonly id: number,
  ) {
    super();
  }
}

@QueryHandler(GetProductQuery)
export class GetProductHandler implements IQueryHandler<GetProductQuery> {
  constructor(private readonly products: ProductRepository) {}

  async execute({ accountId, id }: GetProductQuery): Promise<ProductView> {
    const product = await this.products.find(accountId, id);
    return toProductView(product, await this.products.typeLinks(accountId, [product.id]));
  }
}
