import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Addon } from './addon.entity';
import {
  AppointmentTypeAddon,
  AppointmentTypeCalendar,
  AppointmentTypeForm,
} from './appointment-type-links.entity';
import { AppointmentType } from './appointment-type.entity';
import { Calendar } from './calendar.entity';
import { ClassSession } from './class-session.entity';
import { Coupon, CouponAppointmentType } from './coupon.entity';
import { Label } from './label.entity';
import { LabelsController } from './labels.controller';
import { LabelsService } from './labels.service';
import { Product, ProductAppointmentType } from './product.entity';

/** What an account's owner configures before clients can book. */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      Addon,
      AppointmentType,
      AppointmentTypeAddon,
      AppointmentTypeCalendar,
      AppointmentTypeForm,
      Calendar,
      ClassSession,
      Coupon,
      CouponAppointmentType,
      Label,
      Product,
      ProductAppointmentType,
    ]),
  ],
  controllers: [LabelsController],
  providers: [LabelsService],
  exports: [LabelsService],
})
export class CatalogModule {}
