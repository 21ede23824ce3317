import { Module } from '@nestjs/common';
import { handlersOf } from '../../common/cqrs/handlers-of';
import * as couponCommands from './coupon.commands';
import * as couponQueries from './coupon.queries';
import { CouponRepository, couponTables } from './coupon.repository';

/** Coupons: what the operator CLI's demo seed needs of certificates (no Redis, no HTTP). */
@Module({
  imports: [couponTables],
  providers: [CouponRepository, ...handlersOf(couponCommands, couponQueries)],
  exports: [CouponRepository],
})
export class CouponsModule {}
