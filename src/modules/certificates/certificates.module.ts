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
import { Payment } from './payment.entity';
import { PaymentLedger } from './payment-ledger';

/**
 * Codes clients present when booking (packages, coupons, gift certificates), the orders issuing them,
 * and the payments ledger of orders and appointments.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Certificate, CertificateUses, Order, Payment]),
    CouponsModule,
    OutboxModule,
  ],
  controllers: [CertificatesController, CouponsController, OrdersController],
  providers: [CertificatesService, OrdersService, PaymentLedger],
  exports: [CertificatesService, CouponsModule, PaymentLedger],
})
export class CertificatesModule {}
