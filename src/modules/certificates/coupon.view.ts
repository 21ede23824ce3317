import { formatCents } from '../../common/money/money';
import { type Coupon, DISCOUNT_TYPES } from './coupon.entity';
import {
  date,
  id,
  list,
  money,
  oneOf,
  orNull,
  text,
  viewSchema,
  type ViewType,
} from '../../common/openapi/view-schema';

/** `POST /coupons` and the reads beside it: the fields a coupon is created with. */
export type CouponView = ViewType<typeof COUPON_VIEW>;

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

export const COUPON_VIEW = viewSchema('CouponView', {
  id: id(4),
  code: orNull(text('SPRING10')),
  name: text('Spring'),
  discountType: oneOf(DISCOUNT_TYPES, 'percentage'),
  discountAmount: money('15.00', '15 % or $15, with two decimals.'),
  /** Ascending. Deleted types stay: dropped, a coupon limited to them would read as for all. */
  appointmentTypeIDs: list(id(12), 'Empty: every type.'),
  expiration: orNull(date('2030-06-30', 'The last day it can be used; null: never expires.')),
});
