import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentPrincipal, type Principal } from '../accounts';
import { CreateOrderRequest, ListOrdersQuery } from './order.requests';
import type { OrderView } from './order.view';
import { OrdersService } from './orders.service';

@ApiTags('orders')
@ApiBasicAuth()
@Controller('orders')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  /** Newest first; `max` (default 100, at most 1000). */
  @Get()
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListOrdersQuery,
  ): Promise<OrderView[]> {
    return this.orders.list(principal.account, query.max);
  }

  @Get(`:id${NUMERIC}`)
  get(@CurrentPrincipal() principal: Principal, @IdParam() id: number): Promise<OrderView> {
    return this.orders.get(principal.account, id);
  }

  /** An unpaid order of a product. */
  @Post()
  @HttpCode(200)
  create(
    @CurrentPrincipal() principal: Principal,
    @Body() request: CreateOrderRequest,
  ): Promise<OrderView> {
    return this.orders.create(principal.account, request);
  }

  /** Paid: issues the product's certificate and emits `order.completed`; again, changes nothing. */
  @Put(`:id${NUMERIC}/complete`)
  complete(@CurrentPrincipal() principal: Principal, @IdParam() id: number): Promise<OrderView> {
    return this.orders.complete(principal.account, id);
  }
}
