import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Coupon, CouponAppointmentType } from './coupon.entity';
import { CouponsService } from './coupons.service';

/** Coupons: what the operator CLI's demo seed needs of certificates (no Redis, no HTTP). */
@Module({
  imports: [TypeOrmModule.forFeature([Coupon, CouponAppointmentType])],
  providers: [CouponsService],
  exports: [CouponsService],
})
export class CouponsModule {}
