import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, In, Not } from 'typeorm';
import { groupBy } from '../../common/collections/group-by';
import { isDuplicateEntry } from '../../common/database/mysql-errors';
import { findOwned, listOwned, softDeleteOwned } from '../../common/database/tenant-rows';
import { toCents } from '../../common/money/money';
import { checkAppointmentTypeIds } from '../catalog';
import {
  CouponCodeInUseError,
  DiscountNotPositiveError,
  PercentageOverWholeError,
} from './certificate.errors';
import { Coupon, CouponAppointmentType, type DiscountType } from './coupon.entity';
import type { CreateCouponRequest, UpdateCouponRequest } from './coupon.requests';
import { type CouponView, toCouponView } from './coupon.view';

/** 100 % in hundredths of a percent. */
const WHOLE_PERCENT = 100_00;

/** `amount` in hundredths (cents or hundredths of a percent): a discount takes something off, at most all. */
function checkDiscount(type: DiscountType, amount: number): void {
  if (amount <= 0) throw new DiscountNotPositiveError();
  if (type === 'percentage' && amount > WHOLE_PERCENT) throw new PercentageOverWholeError();
}

@Injectable()
export class CouponsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(accountId: number): Promise<CouponView[]> {
    const manager = this.dataSource.manager;
    const coupons = await listOwned(manager.getRepository(Coupon), accountId);
    const ids = coupons.map((coupon) => coupon.id);
    const links = groupBy(await this.links(manager, ids), (link) => link.couponId);
    return coupons.map((coupon) => {
      const typeIds = (links.get(coupon.id) ?? []).map((link) => link.appointmentTypeId);
      return toCouponView(coupon, typeIds);
    });
  }

  async get(accountId: number, id: number): Promise<CouponView> {
    const manager = this.dataSource.manager;
    return this.view(manager, await findOwned(manager.getRepository(Coupon), accountId, id));
  }

  async create(accountId: number, request: CreateCouponRequest): Promise<CouponView> {
    const discountAmount = toCents(request.discountAmount);
    checkDiscount(request.discountType, discountAmount);
    const code = request.code ?? null;
    return this.withCodeRace(code, () =>
      this.dataSource.transaction(async (tx) => {
        if (code !== null) await this.checkCodeFree(tx, accountId, code);
        const typeIds = request.appointmentTypeIDs ?? [];
        await checkAppointmentTypeIds(tx, accountId, typeIds);
        const now = new Date();
        const coupon = await tx.save(
          tx.create(Coupon, {
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
        );
        await this.replaceTypes(tx, coupon.id, typeIds);
        return this.view(tx, coupon);
      }),
    );
  }

  async update(accountId: number, id: number, request: UpdateCouponRequest): Promise<CouponView> {
    return this.withCodeRace(request.code ?? null, () =>
      this.dataSource.transaction(async (tx) => {
        const coupon = await findOwned(tx.getRepository(Coupon), accountId, id, {
          forUpdate: true,
        });
        const discountType = request.discountType ?? coupon.discountType;
        const discountAmount =
          request.discountAmount === undefined
            ? coupon.discountAmount
            : toCents(request.discountAmount);
        checkDiscount(discountType, discountAmount);
        if (request.code) await this.checkCodeFree(tx, accountId, request.code, coupon.id);
        if (request.appointmentTypeIDs) {
          await checkAppointmentTypeIds(tx, accountId, request.appointmentTypeIDs);
        }

        if (request.code !== undefined) coupon.code = request.code;
        if (request.name !== undefined) coupon.name = request.name;
        if (request.expiration !== undefined) coupon.expiration = request.expiration;
        coupon.discountType = discountType;
        coupon.discountAmount = discountAmount;
        coupon.updatedAt = new Date();
        await tx.save(coupon);
        if (request.appointmentTypeIDs) {
          await this.replaceTypes(tx, coupon.id, request.appointmentTypeIDs);
        }
        return this.view(tx, coupon);
      }),
    );
  }

  /** Soft delete: issued certificates keep their coupon; its code stays taken (the unique key). */
  async delete(accountId: number, id: number): Promise<void> {
    await softDeleteOwned(this.dataSource.getRepository(Coupon), accountId, id);
  }

  /** Deleted coupons count: the unique key covers them, and old certificates still show the code. */
  private async checkCodeFree(
    tx: EntityManager,
    accountId: number,
    code: string,
    exceptId?: number,
  ): Promise<void> {
    const taken = await tx.exists(Coupon, {
      where: { accountId, code, ...(exceptId === undefined ? {} : { id: Not(exceptId) }) },
    });
    if (taken) throw new CouponCodeInUseError(code);
    // Clients type coupon and certificate codes into the same field: one namespace per account.
    const issued = await tx.query<unknown[]>(
      'SELECT 1 FROM certificates WHERE account_id = ? AND code = ? LIMIT 1',
      [accountId, code],
    );
    if (issued.length > 0) throw new CouponCodeInUseError(code);
  }

  /** Two requests can both find a code free; the unique key then refuses the second. */
  private async withCodeRace<T>(code: string | null, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (e) {
      if (code !== null && isDuplicateEntry(e)) throw new CouponCodeInUseError(code);
      throw e;
    }
  }

  private async replaceTypes(tx: EntityManager, couponId: number, typeIds: readonly number[]) {
    await tx.delete(CouponAppointmentType, { couponId });
    const rows = [...new Set(typeIds)].map((appointmentTypeId) => ({
      couponId,
      appointmentTypeId,
    }));
    if (rows.length > 0) await tx.insert(CouponAppointmentType, rows);
  }

  private links(manager: EntityManager, couponIds: number[]): Promise<CouponAppointmentType[]> {
    if (couponIds.length === 0) return Promise.resolve([]);
    return manager.find(CouponAppointmentType, {
      where: { couponId: In(couponIds) },
      order: { appointmentTypeId: 'ASC' },
    });
  }

  private async view(manager: EntityManager, coupon: Coupon): Promise<CouponView> {
    const links = await this.links(manager, [coupon.id]);
    return toCouponView(
      coupon,
      links.map((link) => link.appointmentTypeId),
    );
  }
}
