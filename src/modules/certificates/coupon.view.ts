import { formatCents } from '../../common/money/money';
import type { Coupon, DiscountType } from './coupon.entity';
import {
  date,
  id,
  list,
  money,
  oneOf,
  orNull,
  text,
  viewSchema,
} from '../../common/openapi/view-schema';
import { DISCOUNT_TYPES } from './coupon.entity';

/** `POST /coupons` and the reads beside it: the fields a coupon is created with. */
export interface CouponView {
  id: number;
  code: string | null;
  name: string;
  discountType: DiscountType;
  /** Two decimals for both kinds: `"15.00"` is 15 % or $15. */
  discountAmount: string;
  /**
   * The types the coupon applies to, ascending; empty = every type. Deleted types stay listed:
   * dropping them would show a coupon limited to them as one for every type.
   */
  appointmentTypeIDs: number[];
  /** The last day it can be used (`YYYY-MM-DD`); null = it never expires. */
  expiration: string | null;
}

/** `appointmentTypeIds`: the types the coupon is linked to, ascending. */
export function toCouponView(coupon: Coupon, appointmentTypeIds: number[]): CouponView {
  return {
    id: coupon.id,
    code: coupon.code,
    name: coupon.name,
    discountType: coupon.discountType,
    // Stored in hundredths for both kinds, so the money formatter prints both.
    discountAmount: formatCents(coupon.discountAmount),
    appointmentTypeIDs: appointmentTypeIds,
    expiration: coupon.expiration,
  };
}

export const COUPON_VIEW = viewSchema<CouponView>('CouponView', {
  id: id(4),
  code: orNull(text('SPRING10')),
  name: text('Spring'),
  discountType: oneOf(DISCOUNT_TYPES, 'percentage'),
  discountAmount: money('15.00', '15 % or $15, with two decimals.'),
  appointmentTypeIDs: list(id(12), 'Empty: every type.'),
  expiration: orNull(date('2030-06-30', 'The last day it can be used; null: never expires.')),
});
