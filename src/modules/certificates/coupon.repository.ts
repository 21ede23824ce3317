import { Injectable } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { type EntityManager, In, IsNull, Not } from 'typeorm';
import { groupBy } from '../../common/collections/group-by';
import { RepositoryOf } from '../../common/database/tenant-repository';
import { Coupon, CouponAppointmentType } from './coupon.entity';

export const couponTables = TypeOrmModule.forFeature([Coupon, CouponAppointmentType]);

@Injectable()
export class CouponRepository extends RepositoryOf(Coupon) {
  /** Deleted ones too: a certificate keeps showing the terms it was issued with. */
  byIds(ids: readonly number[], tx?: EntityManager): Promise<Coupon[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.rows(tx).findBy({ id: In(ids) });
  }

  liveByCode(accountId: number, code: string, tx?: EntityManager): Promise<Coupon | null> {
    return this.rows(tx).findOneBy({ accountId, code, deletedAt: IsNull() });
  }

  /**
   * Whether a coupon (deleted ones too: the unique key covers them) or a certificate has the code:
   * clients type both into one field, one namespace per account.
   */
  async codeTaken(
    tx: EntityManager,
    accountId: number,
    code: string,
    exceptId?: number,
  ): Promise<boolean> {
    const coupon = await tx.exists(Coupon, {
      where: { accountId, code, ...(exceptId === undefined ? {} : { id: Not(exceptId) }) },
    });
    if (coupon) return true;
    const issued = await tx.query<unknown[]>(
      'SELECT 1 FROM certificates WHERE account_id = ? AND code = ? LIMIT 1',
      [accountId, code],
    );
    return issued.length > 0;
  }

  /** The types each coupon is linked to, ascending, by coupon id. */
  async typeIds(couponIds: readonly number[], tx?: EntityManager): Promise<Map<number, number[]>> {
    if (couponIds.length === 0) return new Map();
    const links = await (tx ?? this.dataSource.manager).find(CouponAppointmentType, {
      where: { couponId: In(couponIds) },
      order: { appointmentTypeId: 'ASC' },
    });
    const byCoupon = groupBy(links, (link) => link.couponId);
    return new Map(
      [...byCoupon].map(([id, rows]) => [id, rows.map((link) => link.appointmentTypeId)]),
    );
  }

  async typeIdsOf(couponId: number, tx?: EntityManager): Promise<number[]> {
    return (await this.typeIds([couponId], tx)).get(couponId) ?? [];
  }

  async replaceTypes(
    tx: EntityManager,
    couponId: number,
    typeIds: readonly number[],
  ): Promise<void> {
    await tx.delete(CouponAppointmentType, { couponId });
    const rows = [...new Set(typeIds)].map((appointmentTypeId) => ({
      couponId,
      appointmentTypeId,
    }));
    if (rows.length > 0) await tx.insert(CouponAppointmentType, rows);
  }
}
