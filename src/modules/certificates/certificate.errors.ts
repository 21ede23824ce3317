import { AttributeError } from '../../common/errors/domain-error';

/* The contract's four certificate errors (400), as POST /appointments and the check give them. */

export class InvalidCertificateError extends AttributeError(
  'invalid_certificate',
  (code: string) => `The certificate "${code}" is invalid.`,
) {}

export class ExpiredCertificateError extends AttributeError(
  'expired_certificate',
  (code: string) => `The certificate "${code}" is expired.`,
) {}

export class InvalidCertificateTypeError extends AttributeError(
  'invalid_certificate_type',
  (code: string, appointmentTypeId: number) =>
    `The certificate "${code}" is invalid for appointment type "${appointmentTypeId}".`,
) {}

export class CertificateUsesError extends AttributeError(
  'certificate_uses',
  (code: string, appointmentTypeId: number) =>
    `The certificate "${code}" has no remaining uses for appointment type "${appointmentTypeId}".`,
) {}

/* Issuing certificates (POST /certificates). */

export class ProductOrCouponRequiredError extends AttributeError(
  'required_product_id',
  () => 'Attribute "productID" or "couponID" is required.',
) {}

export class ProductAndCouponError extends AttributeError(
  'invalid_coupon_id',
  () => 'Give either "productID" or "couponID", not both.',
) {}

/** A chosen code outside CODE_PATTERN. */
export class MalformedCertificateCodeError extends AttributeError(
  'invalid_certificate',
  () => 'Attribute "certificate" must be 3 to 40 letters, digits, "-" or "_".',
) {}

/** A chosen code another certificate or a coupon has: one namespace of codes per account. */
export class CertificateCodeInUseError extends AttributeError(
  'invalid_certificate',
  (code: string) => `The code "${code}" is already in use.`,
) {}

export class InvalidCouponError extends AttributeError(
  'invalid_coupon',
  (id: number) => `The coupon "${id}" does not exist.`,
) {}

/* Coupons (the /coupons endpoints). */

/** The coupon's own code, taken by another coupon or a certificate. */
export class CouponCodeInUseError extends AttributeError(
  'invalid_code',
  (code: string) => `The code "${code}" is already in use.`,
) {}

export class DiscountNotPositiveError extends AttributeError(
  'invalid_discount_amount',
  () => 'Attribute "discountAmount" must be greater than 0.',
) {}

export class PercentageOverWholeError extends AttributeError(
  'invalid_discount_amount',
  () => 'Attribute "discountAmount" cannot be more than 100 for a percentage discount.',
) {}
