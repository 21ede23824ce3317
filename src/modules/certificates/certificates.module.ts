import { Module } from '@nestjs/common';
import { CreateCertificateHandler, DeleteCertificateHandler } from './certificate.commands';
import {
  CheckCertificateHandler,
  GetCertificateHandler,
  ListCertificatesHandler,
} from './certificate.queries';
import { CertificateRedemptions } from './certificate-redemptions';
import { CertificateRepository, certificateTables } from './certificate.repository';
import { CertificatesController } from './certificates.controller';
import { CouponsController } from './coupons.controller';
import { CouponsModule } from './coupons.module';
import {
  CompleteOrderHandler,
  CreateOrderHandler,
  RecordOrderPaymentHandler,
} from './order.commands';
import { GetOrderHandler, ListOrderPaymentsHandler, ListOrdersHandler } from './order.queries';
import { OrderRepository } from './order.repository';
import { OrdersController } from './orders.controller';
import { PaymentLedger } from './payment-ledger';
import { PaymentRepository } from './payment.repository';

/**
 * Codes clients present when booking (packages, coupons, gift certificates), the orders issuing them,
 * and the payments ledger of orders and appointments.
 */
@Module({
  imports: [certificateTables, CouponsModule],
  controllers: [CertificatesController, CouponsController, OrdersController],
  providers: [
    CertificateRedemptions,
    CertificateRepository,
    CheckCertificateHandler,
    CompleteOrderHandler,
    CreateCertificateHandler,
    CreateOrderHandler,
    DeleteCertificateHandler,
    GetCertificateHandler,
    GetOrderHandler,
    ListCertificatesHandler,
    ListOrderPaymentsHandler,
    ListOrdersHandler,
    OrderRepository,
    PaymentLedger,
    PaymentRepository,
    RecordOrderPaymentHandler,
  ],
  exports: [CertificateRedemptions, PaymentLedger, PaymentRepository],
})
export class CertificatesModule {}
