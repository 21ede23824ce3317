import { QueryHandler } from '@nestjs/cqrs';
import {
  AccountItemQuery,
  AccountQuery,
  GetHandler,
  ListHandler,
} from '../../common/cqrs/account-messages';
import type { Coupon } from './coupon.entity';
import { CouponRepository } from './coupon.repository';
import { type CouponView, toCouponView } from './coupon.view';

async function views(coupons: Coupon[], rows: CouponRepository) {
  const typeIds = await rows.typeIds(coupons.map((coupon) => coupon.id));
  return coupons.map((coupon) => toCouponView(coupon, typeIds.get(coupon.id) ?? []));
}

export class ListCouponsQuery extends AccountQuery<CouponView[]> {}

@QueryHandler(ListCouponsQuery)
export class ListCouponsHandler extends ListHandler(CouponRepository, views) {}

export class GetCouponQuery extends AccountItemQuery<CouponView> {}

@QueryHandler(GetCouponQuery)
export class GetCouponHandler extends GetHandler(CouponRepository, views) {}
