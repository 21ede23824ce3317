import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CouponRepository } from './coupon.repository';
import { type CouponView, toCouponView } from './coupon.view';

export class ListCouponsQuery extends Query<CouponView[]> {
  constructor(readonly accountId: number) {
    super();
  }
}

@QueryHandler(ListCouponsQuery)
export class ListCouponsHandler implements IQueryHandler<ListCouponsQuery> {
  constructor(private readonly coupons: CouponRepository) {}

  async execute({ accountId }: ListCouponsQuery): Promise<CouponView[]> {
    const coupons = await this.coupons.list(accountId);
    const typeIds = await this.coupons.typeIds(coupons.map((coupon) => coupon.id));
    return coupons.map((coupon) => toCouponView(coupon, typeIds.get(coupon.id) ?? []));
  }
}

export class GetCouponQuery extends Query<CouponView> {
  constructor(
    readonly accountId: number,
    readonly id: number,
  ) {
    super();
  }
}

@QueryHandler(GetCouponQuery)
export class GetCouponHandler implements IQueryHandler<GetCouponQuery> {
  constructor(private readonly coupons: CouponRepository) {}

  async execute({ accountId, id }: GetCouponQuery): Promise<CouponView> {
    const coupon = await this.coupons.find(accountId, id);
    return toCouponView(coupon, await this.coupons.typeIdsOf(coupon.id));
  }
}
