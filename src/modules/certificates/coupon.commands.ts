import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { isDuplicateEntry } from '../../common/database/mysql-errors';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { toCents } from '../../common/money/money';
import { checkAppointmentTypeIds } from '../catalog';
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

/** `amount` in hundredths (cents or hundredths of a percent): a discount takes something off, at most all. */
function checkDiscount(type: DiscountType, amount: number): void {
  if (amount <= 0) throw new DiscountNotPositiveError();
  if (type === 'percentage' && amount > WHOLE_PERCENT) throw new PercentageOverWholeError();
}

export class CreateCouponCommand extends Command<CouponView> {
  constructor(
    readonly accountId: number,
    readonly request: CreateCouponRequest,
  ) {
    super();
  }
}

@CommandHandler(CreateCouponCommand)
export class CreateCouponHandler implements ICommandHandler<CreateCouponCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly coupons: CouponRepository,
  ) {}

  execute({ accountId, request }: CreateCouponCommand): Promise<CouponView> {
    const discountAmount = toCents(request.discountAmount);
    checkDiscount(request.discountType, discountAmount);
    const code = request.code ?? null;
    return withCodeRace(code, () =>
      this.unitOfWork.run(accountId, async (tx) => {
        if (code !== null && (await this.coupons.codeTaken(tx, accountId, code)))
          throw new CouponCodeInUseError(code);
        const typeIds = request.appointmentTypeIDs ?? [];
        await checkAppointmentTypeIds(tx, accountId, typeIds);
        const now = new Date();
        const coupon = await this.coupons.save(
          Object.assign(new Coupon(), {
            accountId,
            code,
            name: request.name,
            discountType: request.discountType,
            discountAmount,
            expiration: request.expiration ?? null,
            deletedAt: null,
            createdAt: now,
            updatedAt: now,
          }),
          tx,
        );
        await this.coupons.replaceTypes(tx, coupon.id, typeIds);
        return toCouponView(coupon, await this.coupons.typeIdsOf(coupon.id, tx));
      }),
    );
  }
}

export class UpdateCouponCommand extends Command<CouponView> {
  constructor(
    readonly accountId: number,
    readonly id: number,
    readonly request: UpdateCouponRequest,
  ) {
    super();
  }
}

@CommandHandler(UpdateCouponCommand)
export class UpdateCouponHandler implements ICommandHandler<UpdateCouponCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly coupons: CouponRepository,
  ) {}

  execute({ accountId, id, request }: UpdateCouponCommand): Promise<CouponView> {
    return withCodeRace(request.code ?? null, () =>
      this.unitOfWork.run(accountId, async (tx) => {
        const coupon = await this.coupons.find(accountId, id, { forUpdate: true, tx });
        const discountType = request.discountType ?? coupon.discountType;
        const discountAmount =
          request.discountAmount === undefined
            ? coupon.discountAmount
            : toCents(request.discountAmount);
        checkDiscount(discountType, discountAmount);
        if (request.code && (await this.coupons.codeTaken(tx, accountId, request.code, coupon.id)))
          throw new CouponCodeInUseError(request.code);
        if (request.appointmentTypeIDs) {
          await checkAppointmentTypeIds(tx, accountId, request.appointmentTypeIDs);
        }

        if (request.code !== undefined) coupon.code = request.code;
        if (request.name !== undefined) coupon.name = request.name;
        if (request.expiration !== undefined) coupon.expiration = request.expiration;
        coupon.discountType = discountType;
        coupon.discountAmount = discountAmount;
        coupon.updatedAt = new Date();
        await this.coupons.save(coupon, tx);
        if (request.appointmentTypeIDs) {
          await this.coupons.replaceTypes(tx, coupon.id, request.appointmentTypeIDs);
        }
        return toCouponView(coupon, await this.coupons.typeIdsOf(coupon.id, tx));
      }),
    );
  }
}

/** Soft delete: issued certificates keep their coupon; its code stays taken (the unique key). */
export class DeleteCouponCommand extends Command<void> {
  constructor(
    readonly accountId: number,
    readonly id: number,
  ) {
    super();
  }
}

@CommandHandler(DeleteCouponCommand)
export class DeleteCouponHandler implements ICommandHandler<DeleteCouponCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly coupons: CouponRepository,
  ) {}

  execute({ accountId, id }: DeleteCouponCommand): Promise<void> {
    return this.unitOfWork.run(accountId, (tx) => this.coupons.softDelete(accountId, id, tx));
  }
}

/** Two requests can both find a code free; the unique key then refuses the second. */
async function withCodeRace<T>(code: string | null, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (code !== null && isDuplicateEntry(e)) throw new CouponCodeInUseError(code);
    throw e;
  }
}
