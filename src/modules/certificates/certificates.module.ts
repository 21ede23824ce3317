import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxModule } from '../../common/outbox/outbox.module';
import { Certificate, CertificateUses } from './certificate.entity';
import { CertificatesController } from './certificates.controller';
import { CertificatesService } from './certificates.service';
import { CouponsController } from './coupons.controller';
import { CouponsModule } from './coupons.module';
import { Order } from './order.entity';
import { OrdersController } from './orders.controller';
import { OrdersService } from './orders.service';

/** Codes clients present when booking (packages, coupons, gift certificates) and the orders issuing them. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Certificate, CertificateUses, Order]),
    CouponsModule,
    OutboxModule,
  ],
  controllers: [CertificatesController, CouponsController, OrdersController],
  providers: [CertificatesService, OrdersService],
  exports: [CertificatesService, CouponsModule],
})
export class CertificatesModule {}
