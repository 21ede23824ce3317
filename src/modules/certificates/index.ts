/* What other modules use of certificates: they import this index, never its files. */
export { normalizeCode } from './certificate-codes';
export { CertificateRedemptions } from './certificate-redemptions';
export { kindOf } from './certificate.view';
export { CertificatesModule } from './certificates.module';
export { priceAfterCoupon } from './coupon-price';
export { CreateCouponCommand } from './coupon.commands';
export { CouponsModule } from './coupons.module';
export type { Payment } from './payment.entity';
export { PaymentLedger, retryTransactionIdRace } from './payment-ledger';
export { PaymentRepository } from './payment.repository';
export { ApiListPayments, ApiRecordPayment } from './payment.openapi';
export { type NewPayment, RecordPaymentRequest, newPayment } from './payment.requests';
export { type PaymentView, toPaymentView } from './payment.view';
