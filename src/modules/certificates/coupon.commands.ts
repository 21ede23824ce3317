import { CommandHandler } from '@nestjs/cqrs';
import { WriteHandler } from '../../common/cqrs/write-handler';
import {
  AccountCommand,
  AccountItemAction,
  AccountItemCommand,
  SoftDeleteHandler,
} from '../../common/cqrs/account-messages';
import { isDuplicateEntry } from '../../common/database/mysql-errors';
import { toCents } from '../../common/money/money';
import { checkAppointmentTypeIds, copyGiven, newCatalogRow } from '../catalog';
import {
  CouponCodeInUseError,
  DiscountNotPositiveError,
  PercentageOverWholeError,
} from './certificate.errors';
import { Coupon, type DiscountType } from './coupon.entity';
import { CouponRepository } from './coupon.repository';
import type { CreateCouponRequest, UpdateCouponRequest } from './coupon.requests';
import { type CouponView, toCouponView } from './coupon.view';

/** 100 % in hundredths of a percent. */
const WHOLE_PERCENT = 100_00;

/** `amount` in hundredths: a discount takes something off, at most all. */
function checkDiscount(type: DiscountType, amount: number): void {
  if (amount <= 0) throw new DiscountNotPositiveError();
  if (type === 'percentage' && amount > WHOLE_PERCENT) throw new PercentageOverWholeError();
}

export class CreateCouponCommand extends AccountCommand<CreateCouponRequest, CouponView> {}

@CommandHandler(CreateCouponCommand)
export class CreateCouponHandler extends WriteHandler(CouponRepository) {
  execute({ accountId, request }: CreateCouponCommand): Promise<CouponView> {
    const discountAmount = toCents(request.discountAmount);
    checkDiscount(request.discountType, discountAmount);
    const code = request.code ?? null;
    return withCodeRace(code, () =>
      this.unitOfWork.run(accountId, async (tx) => {
        if (code !== null && (await this.rows.codeTaken(tx, accountId, code)))
          throw new CouponCodeInUseError(code);
        const typeIds = request.appointmentTypeIDs ?? [];
        await checkAppointmentTypeIds(tx, accountId, typeIds);
        const coupon = await this.rows.save(
          newCatalogRow(Coupon, accountId, {
            code,
            name: request.name,
            discountType: request.discountType,
            discountAmount,
            expiration: request.expiration ?? null,
          }),
          tx,
        );
        await this.rows.replaceTypes(tx, coupon.id, typeIds);
        return toCouponView(coupon, await this.rows.typeIdsOf(coupon.id, tx));
      }),
    );
  }
}

export class UpdateCouponCommand extends AccountItemCommand<UpdateCouponRequest, CouponView> {}

@CommandHandler(UpdateCouponCommand)
export class UpdateCouponHandler extends WriteHandler(CouponRepository) {
  execute({ accountId, id, request }: UpdateCouponCommand): Promise<CouponView> {
    return withCodeRace(request.code ?? null, () =>
      this.unitOfWork.run(accountId, async (tx) => {
        const coupon = await this.rows.find(accountId, id, { forUpdate: true, tx });
        const discountType = request.discountType ?? coupon.discountType;
        const discountAmount =
          request.discountAmount === undefined
            ? coupon.discountAmount
            : toCents(request.discountAmount);
        checkDiscount(discountType, discountAmount);
        if (request.code && (await this.rows.codeTaken(tx, accountId, request.code, coupon.id)))
          throw new CouponCodeInUseError(request.code);
        if (request.appointmentTypeIDs)
          await checkAppointmentTypeIds(tx, accountId, request.appointmentTypeIDs);

        copyGiven(coupon, request, ['code', 'name', 'expiration']);
        coupon.discountType = discountType;
        coupon.discountAmount = discountAmount;
        coupon.updatedAt = new Date();
        await this.rows.save(coupon, tx);
        if (request.appointmentTypeIDs)
          await this.rows.replaceTypes(tx, coupon.id, request.appointmentTypeIDs);
        return toCouponView(coupon, await this.rows.typeIdsOf(coupon.id, tx));
      }),
    );
  }
}

/** Soft delete: issued certificates keep their coupon; its code stays taken (the unique key). */
export class DeleteCouponCommand extends AccountItemAction {}

@CommandHandler(DeleteCouponCommand)
export class DeleteCouponHandler extends SoftDeleteHandler(CouponRepository) {}

/** Two requests can both find a code free; the unique key then refuses the second. */
async function withCodeRace<T>(code: string | null, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (code !== null && isDuplicateEntry(e)) throw new CouponCodeInUseError(code);
    throw e;
  }
}
