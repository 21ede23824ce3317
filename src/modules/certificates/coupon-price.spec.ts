import { priceAfterCoupon } from './coupon-price';

describe('priceAfterCoupon', () => {
  it.each([
    // [price cents, type, amount (hundredths), expected cents]
    [4000, 'percentage', 1000, 3600], // 10% of $40.00
    [4000, 'percentage', 1250, 3500], // 12.5%
    [999, 'percentage', 1000, 899], // 99.9 cents off rounds to 100
    [1005, 'percentage', 5000, 502], // half of $10.05 = 502.5 → 503 off
    [1, 'percentage', 5000, 0], // 0.5 → 1 off
    [4000, 'percentage', 10000, 0], // 100%
    [4000, 'percentage', 0, 4000],
    [0, 'percentage', 2500, 0],
    [4000, 'price', 1500, 2500], // $15 off
    [4000, 'price', 4000, 0],
    [4000, 'price', 5000, 0], // never below zero
    [0, 'price', 500, 0],
  ] as const)('%p cents, %s %p → %p cents', (price, discountType, discountAmount, expected) => {
    expect(priceAfterCoupon(price, { discountType, discountAmount })).toBe(expected);
  });
});
