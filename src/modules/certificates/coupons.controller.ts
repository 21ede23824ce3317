import { Body } from '@nestjs/common';
import { BusController } from '../../common/cqrs/bus-controller';
import { IdParam } from '../../common/http/id-param';
import { ApiErrors } from '../../common/openapi/api-errors';
import { CurrentAccountId } from '../accounts';
import { CatalogController, Route } from '../catalog';
import { CreateCouponRequest, UpdateCouponRequest } from './coupon.requests';
import { COUPON_VIEW, type CouponView } from './coupon.view';
import { CreateCouponCommand, DeleteCouponCommand, UpdateCouponCommand } from './coupon.commands';
import { GetCouponQuery, ListCouponsQuery } from './coupon.queries';

@CatalogController('coupons')
export class CouponsController extends BusController {
  @Route.list('List the coupons', COUPON_VIEW)
  list(@CurrentAccountId() accountId: number): Promise<CouponView[]> {
    return this.queries.execute(new ListCouponsQuery(accountId));
  }

  @Route.get('Read a coupon', COUPON_VIEW)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<CouponView> {
    return this.queries.execute(new GetCouponQuery(accountId, id));
  }

  @Route.create('Create a coupon', COUPON_VIEW)
  @ApiErrors({ 400: ['invalid_appointment_type'] })
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateCouponRequest,
  ): Promise<CouponView> {
    return this.commands.execute(new CreateCouponCommand(accountId, request));
  }

  @Route.update('Change a coupon', COUPON_VIEW)
  @ApiErrors({ 400: ['invalid_appointment_type'] })
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateCouponRequest,
  ): Promise<CouponView> {
    return this.commands.execute(new UpdateCouponCommand(accountId, id, request));
  }

  @Route.delete('Delete a coupon')
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteCouponCommand(accountId, id));
  }
}
