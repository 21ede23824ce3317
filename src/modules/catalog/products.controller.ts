import { Body } from '@nestjs/common';
import { BusController } from '../../common/cqrs/bus-controller';
import { IdParam } from '../../common/http/id-param';
import { CurrentAccountId } from '../accounts';
import { CatalogController, Route } from './catalog-routes';
import { CreateProductRequest, UpdateProductRequest } from './product.requests';
import { PRODUCT_VIEW, type ProductView } from './product.view';
import {
  CreateProductCommand,
  DeleteProductCommand,
  UpdateProductCommand,
} from './product.commands';
import { GetProductQuery, ListProductsQuery } from './product.queries';
import { ApiErrors } from '../../common/openapi/api-errors';

/** What creating or changing a product may be refused for, beyond its attributes' own codes. */
const PRODUCT_ERRORS = {
  400: ['invalid_appointment_type', 'required_appointment_type_counts'],
  403: ['forbidden'],
};

@CatalogController('products')
export class ProductsController extends BusController {
  @Route.list('List the products', PRODUCT_VIEW)
  list(@CurrentAccountId() accountId: number): Promise<ProductView[]> {
    return this.queries.execute(new ListProductsQuery(accountId));
  }

  @Route.get('Read a product', PRODUCT_VIEW)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<ProductView> {
    return this.queries.execute(new GetProductQuery(accountId, id));
  }

  @Route.create('Create a product', PRODUCT_VIEW)
  @ApiErrors(PRODUCT_ERRORS)
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateProductRequest,
  ): Promise<ProductView> {
    return this.commands.execute(new CreateProductCommand(accountId, request));
  }

  @Route.update('Change a product', PRODUCT_VIEW)
  @ApiErrors(PRODUCT_ERRORS)
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateProductRequest,
  ): Promise<ProductView> {
    return this.commands.execute(new UpdateProductCommand(accountId, id, request));
  }

  @Route.delete('Delete a product')
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteProductCommand(accountId, id));
  }
}
