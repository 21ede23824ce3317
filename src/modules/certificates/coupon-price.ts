import type { DiscountType } from './coupon.entity';

export interface Discount {
  discountType: DiscountType;
  /** Hundredths: cents for `price`, hundredths of a percent for `percentage` (1250 = 12.5%). */
  discountAmount: number;
}

/**
 * The price after a coupon, in cents: a percentage off (the discount rounded half up to the cent) or
 * a fixed amount off; never below zero.
 */
export function priceAfterCoupon(priceCents: number, discount: Discount): number {
  const off =
    discount.discountType === 'percentage'
      ? Math.round((priceCents * discount.discountAmount) / 10_000)
      : discount.discountAmount;
  return Math.max(0, priceCents - off);
}
