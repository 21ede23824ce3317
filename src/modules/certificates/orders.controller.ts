import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBasicAuth,
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/api-errors';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentPrincipal, type Principal } from '../accounts';
import { CreateOrderRequest, ListOrdersRequest } from './order.requests';
import {
  CompleteOrderCommand,
  CreateOrderCommand,
  RecordOrderPaymentCommand,
} from './order.commands';
import { GetOrderQuery, ListOrderPaymentsQuery, ListOrdersQuery } from './order.queries';
import { OrderView } from './order.view';
import { ApiListPayments, ApiRecordPayment } from './payment.openapi';
import { RecordPaymentRequest, newPayment } from './payment.requests';
import type { PaymentView } from './payment.view';

@ApiTags('orders')
@ApiBasicAuth()
@Controller('orders')
export class OrdersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** Newest first; `max` (default 100, at most 1000). */
  @Get()
  @ApiOperation({ summary: 'List the orders' })
  @ApiOkResponse({ type: OrderView, isArray: true })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListOrdersRequest,
  ): Promise<OrderView[]> {
    return this.queries.execute(new ListOrdersQuery(principal.account, query.max));
  }

  @Get(`:id${NUMERIC}`)
  @ApiOperation({ summary: 'Read an order' })
  @ApiOkResponse({ type: OrderView })
  get(@CurrentPrincipal() principal: Principal, @IdParam() id: number): Promise<OrderView> {
    return this.queries.execute(new GetOrderQuery(principal.account, id));
  }

  /** An unpaid order of a product. */
  @Post()
  @ApiOperation({ summary: 'Place an order for a product' })
  @ApiOkResponse({ type: OrderView })
  @HttpCode(200)
  @ApiErrors({ 400: ['invalid_product'] })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body() request: CreateOrderRequest,
  ): Promise<OrderView> {
    return this.commands.execute(new CreateOrderCommand(principal.account, request));
  }

  /**
   * Paid: what its payments do not cover is recorded as one `external` payment, the product's
   * certificate is issued and `order.completed` emitted; again, changes nothing.
   */
  @Put(`:id${NUMERIC}/complete`)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Marks an order paid',
    description:
      "The place where a payment integration reports a sale paid (this service's own). What the " +
      "order's payments do not cover yet is recorded as one payment (processor `external`); the " +
      "first time an order is paid, its product's certificate is issued and `order.completed` " +
      'emitted. An order already paid is answered as it is.',
  })
  @ApiParam({ name: 'id', description: "The order's id.", schema: { type: 'integer', minimum: 1 } })
  @ApiOkResponse({ type: OrderView })
  @ApiErrors({ 403: ['forbidden'], 404: ['not_found'] })
  complete(@CurrentPrincipal() principal: Principal, @IdParam() id: number): Promise<OrderView> {
    return this.commands.execute(new CompleteOrderCommand(principal.account, id));
  }

  @Get(`:id${NUMERIC}/payments`)
  @ApiListPayments('order')
  payments(
    @CurrentPrincipal() principal: Principal,
    @IdParam() id: number,
  ): Promise<PaymentView[]> {
    return this.queries.execute(new ListOrderPaymentsQuery(principal.account, id));
  }

  @Post(`:id${NUMERIC}/payments`)
  @HttpCode(200)
  @ApiRecordPayment(
    'order',
    "The order's `status` follows: `paid` once its payments cover its total (the first time, " +
      "its product's certificate is issued and `order.completed` emitted), `unpaid` again when " +
      'a refund takes them below it; a free order keeps its status.',
  )
  recordPayment(
    @CurrentPrincipal() principal: Principal,
    @IdParam() id: number,
    @Body() request: RecordPaymentRequest,
  ): Promise<PaymentView> {
    return this.commands.execute(
      new RecordOrderPaymentCommand(principal.account, id, newPayment(request)),
    );
  }
}
