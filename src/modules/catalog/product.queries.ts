import { QueryHandler } from '@nestjs/cqrs';
import {
  AccountItemQuery,
  AccountQuery,
  GetHandler,
  ListHandler,
} from '../../common/cqrs/account-messages';
import { groupBy } from '../../common/collections/group-by';
import type { Product } from './product.entity';
import { ProductRepository } from './product.repository';
import { type ProductView, toProductView } from './product.view';

/** The products with their links to live types, read for all of them at once. */
async function views(products: Product[], rows: ProductRepository, accountId: number) {
  const ids = products.map((product) => product.id);
  const links = groupBy(await rows.typeLinks(accountId, ids), (link) => link.productId);
  return products.map((product) => toProductView(product, links.get(product.id) ?? []));
}

export class ListProductsQuery extends AccountQuery<ProductView[]> {}

@QueryHandler(ListProductsQuery)
export class ListProductsHandler extends ListHandler(ProductRepository, views) {}

export class GetProductQuery extends AccountItemQuery<ProductView> {}

@QueryHandler(GetProductQuery)
export class GetProductHandler extends GetHandler(ProductRepository, views) {}
