import { Module } from '@nestjs/common';
import { handlersOf } from '../../common/cqrs/handlers-of';
import * as certificateCommands from './certificate.commands';
import * as certificateQueries from './certificate.queries';
import { CertificateRedemptions } from './certificate-redemptions';
import { CertificateRepository, certificateTables } from './certificate.repository';
import { CertificatesController } from './certificates.controller';
import { CouponsController } from './coupons.controller';
import { CouponsModule } from './coupons.module';
import * as orderCommands from './order.commands';
import * as orderQueries from './order.queries';
import { OrderRepository } from './order.repository';
import { OrdersController } from './orders.controller';
import { PaymentLedger } from './payment-ledger';
import { PaymentRepository } from './payment.repository';

/** Codes clients book with (packages, coupons, gifts), the orders issuing them, the payments ledger. */
@Module({
  imports: [certificateTables, CouponsModule],
  controllers: [CertificatesController, CouponsController, OrdersController],
  providers: [
    CertificateRedemptions,
    CertificateRepository,
    OrderRepository,
    PaymentLedger,
    PaymentRepository,
    ...handlersOf(certificateCommands, certificateQueries, orderCommands, orderQueries),
  ],
  exports: [CertificateRedemptions, PaymentLedger, PaymentRepository],
})
export class CertificatesModule {}
