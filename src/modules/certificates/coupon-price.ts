import type { Coupon } from './coupon.entity';

/** In cents: a percentage off (rounded half up to the cent) or an amount off; never below zero. */
export function priceAfterCoupon(
  priceCents: number,
  discount: Pick<Coupon, 'discountType' | 'discountAmount'>,
): number {
  const off =
    discount.discountType === 'percentage'
      ? Math.round((priceCents * discount.discountAmount) / 10_000)
      : discount.discountAmount;
  return Math.max(0, priceCents - off);
}
