import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxModule } from '../../common/outbox/outbox.module';
import { Certificate, CertificateUses } from './certificate.entity';
import { CertificatesController } from './certificates.controller';
import { CertificatesService } from './certificates.service';
import { Order } from './order.entity';
import { OrdersController } from './orders.controller';
import { OrdersService } from './orders.service';

/** Codes clients present when booking (packages, coupons, gift certificates) and the orders issuing them. */
@Module({
  imports: [TypeOrmModule.forFeature([Certificate, CertificateUses, Order]), OutboxModule],
  controllers: [CertificatesController, OrdersController],
  providers: [CertificatesService, OrdersService],
  exports: [CertificatesService],
})
export class CertificatesModule {}
