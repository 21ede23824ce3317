import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import { CreateProductRequest, UpdateProductRequest } from './product.requests';
import { PRODUCT_VIEW, type ProductView } from './product.view';
import {
  CreateProductCommand,
  DeleteProductCommand,
  UpdateProductCommand,
} from './product.commands';
import { GetProductQuery, ListProductsQuery } from './product.queries';
import { ApiView } from '../../common/openapi/view-schema';
import { ApiErrors } from '../../common/openapi/api-errors';

@ApiTags('catalog')
@ApiBasicAuth()
@Controller('products')
export class ProductsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @ApiOperation({ summary: 'List the products' })
  @ApiView(PRODUCT_VIEW, { list: true })
  @Get()
  list(@CurrentAccountId() accountId: number): Promise<ProductView[]> {
    return this.queries.execute(new ListProductsQuery(accountId));
  }

  @ApiOperation({ summary: 'Read a product' })
  @ApiView(PRODUCT_VIEW)
  @Get(`:id${NUMERIC}`)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<ProductView> {
    return this.queries.execute(new GetProductQuery(accountId, id));
  }

  @ApiOperation({ summary: 'Create a product' })
  @ApiView(PRODUCT_VIEW)
  @Post()
  @HttpCode(200)
  @ApiErrors({
    400: ['invalid_appointment_type', 'required_appointment_type_counts'],
    403: ['forbidden'],
  })
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateProductRequest,
  ): Promise<ProductView> {
    return this.commands.execute(new CreateProductCommand(accountId, request));
  }

  @ApiOperation({ summary: 'Change a product' })
  @ApiView(PRODUCT_VIEW)
  @Put(`:id${NUMERIC}`)
  @ApiErrors({
    400: ['invalid_appointment_type', 'required_appointment_type_counts'],
    403: ['forbidden'],
  })
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateProductRequest,
  ): Promise<ProductView> {
    return this.commands.execute(new UpdateProductCommand(accountId, id, request));
  }

  @ApiOperation({ summary: 'Delete a product' })
  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteProductCommand(accountId, id));
  }
}
