import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import { CreateCouponRequest, UpdateCouponRequest } from './coupon.requests';
import { COUPON_VIEW, type CouponView } from './coupon.view';
import { CreateCouponCommand, DeleteCouponCommand, UpdateCouponCommand } from './coupon.commands';
import { GetCouponQuery, ListCouponsQuery } from './coupon.queries';
import { ApiView } from '../../common/openapi/view-schema';
import { ApiErrors } from '../../common/openapi/api-errors';

@ApiTags('catalog')
@ApiBasicAuth()
@Controller('coupons')
export class CouponsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @ApiOperation({ summary: 'List the coupons' })
  @ApiView(COUPON_VIEW, { list: true })
  @Get()
  list(@CurrentAccountId() accountId: number): Promise<CouponView[]> {
    return this.queries.execute(new ListCouponsQuery(accountId));
  }

  @ApiOperation({ summary: 'Read a coupon' })
  @ApiView(COUPON_VIEW)
  @Get(`:id${NUMERIC}`)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<CouponView> {
    return this.queries.execute(new GetCouponQuery(accountId, id));
  }

  @ApiOperation({ summary: 'Create a coupon' })
  @ApiView(COUPON_VIEW)
  @Post()
  @HttpCode(200)
  @ApiErrors({ 400: ['invalid_appointment_type'] })
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateCouponRequest,
  ): Promise<CouponView> {
    return this.commands.execute(new CreateCouponCommand(accountId, request));
  }

  @ApiOperation({ summary: 'Change a coupon' })
  @ApiView(COUPON_VIEW)
  @Put(`:id${NUMERIC}`)
  @ApiErrors({ 400: ['invalid_appointment_type'] })
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateCouponRequest,
  ): Promise<CouponView> {
    return this.commands.execute(new UpdateCouponCommand(accountId, id, request));
  }

  @ApiOperation({ summary: 'Delete a coupon' })
  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteCouponCommand(accountId, id));
  }
}
