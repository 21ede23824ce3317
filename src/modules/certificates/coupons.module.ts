import { Module } from '@nestjs/common';
import { CreateCouponHandler, DeleteCouponHandler, UpdateCouponHandler } from './coupon.commands';
import { GetCouponHandler, ListCouponsHandler } from './coupon.queries';
import { CouponRepository, couponTables } from './coupon.repository';

/** Coupons: what the operator CLI's demo seed needs of certificates (no Redis, no HTTP). */
@Module({
  imports: [couponTables],
  providers: [
    CouponRepository,
    CreateCouponHandler,
    DeleteCouponHandler,
    GetCouponHandler,
    ListCouponsHandler,
    UpdateCouponHandler,
  ],
  exports: [CouponRepository],
})
export class CouponsModule {}
