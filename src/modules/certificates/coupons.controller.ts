import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import { CreateCouponRequest, UpdateCouponRequest } from './coupon.requests';
import type { CouponView } from './coupon.view';
import { CouponsService } from './coupons.service';

@ApiTags('catalog')
@ApiBasicAuth()
@Controller('coupons')
export class CouponsController {
  constructor(private readonly coupons: CouponsService) {}

  @Get()
  list(@CurrentAccountId() accountId: number): Promise<CouponView[]> {
    return this.coupons.list(accountId);
  }

  @Get(`:id${NUMERIC}`)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<CouponView> {
    return this.coupons.get(accountId, id);
  }

  @Post()
  @HttpCode(200)
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateCouponRequest,
  ): Promise<CouponView> {
    return this.coupons.create(accountId, request);
  }

  @Put(`:id${NUMERIC}`)
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateCouponRequest,
  ): Promise<CouponView> {
    return this.coupons.update(accountId, id, request);
  }

  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.coupons.delete(accountId, id);
  }
}
