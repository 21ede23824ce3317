import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiBearerAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
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
import { ORDER_VIEW, type OrderView } from './order.view';
import { ApiListPayments, ApiRecordPayment } from './payment.openapi';
import { RecordPaymentRequest, newPayment } from './payment.requests';
import type { PaymentView } from './payment.view';
import { BusController } from '../../common/cqrs/bus-controller';
import { ApiView } from '../../common/openapi/view-schema';

@ApiTags('orders')
@ApiBasicAuth()
@Controller('orders')
export class OrdersController extends BusController {
  @Get()
  @ApiOperation({ summary: 'List the orders' })
  @ApiView(ORDER_VIEW, { list: true, description: 'OK' })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListOrdersRequest,
  ): Promise<OrderView[]> {
    return this.queries.execute(new ListOrdersQuery(principal.account, query.max));
  }

  @Get(`:id${NUMERIC}`)
  @ApiOperation({ summary: 'Read an order' })
  @ApiView(ORDER_VIEW)
  get(@CurrentPrincipal() principal: Principal, @IdParam() id: number): Promise<OrderView> {
    return this.queries.execute(new GetOrderQuery(principal.account, id));
  }

  @Post()
  @ApiOperation({ summary: 'Place an order for a product' })
  @ApiView(ORDER_VIEW)
  @HttpCode(200)
  @ApiErrors({ 400: ['invalid_product'] })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body() request: CreateOrderRequest,
  ): Promise<OrderView> {
    return this.commands.execute(new CreateOrderCommand(principal.account, request));
  }

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
  @ApiView(ORDER_VIEW)
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
