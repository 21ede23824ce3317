/*
 * What other modules use of certificates; they import it from here, not from the module's files.
 */
export { normalizeCode } from './certificate-codes';
export { kindOf } from './certificate.view';
export { CertificatesModule } from './certificates.module';
export { CertificatesService } from './certificates.service';
export { priceAfterCoupon } from './coupon-price';
export { CouponsModule } from './coupons.module';
export { CouponsService } from './coupons.service';
