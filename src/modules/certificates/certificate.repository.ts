import { Injectable } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type EntityManager, In, IsNull, MoreThan } from 'typeorm';
import { isDuplicateEntry } from '../../common/database/mysql-errors';
import { TenantRepository } from '../../common/database/tenant-repository';
import { findReferenced } from '../../common/database/tenant-rows';
import { AppointmentType, InvalidProductError, Product, ProductAppointmentType } from '../catalog';
import { generateCode } from './certificate-codes';
import { Certificate, CertificateUses } from './certificate.entity';
import { CertificateCodeInUseError } from './certificate.errors';
import type { ResolvedCertificate } from './certificate.view';
import { CouponRepository } from './coupon.repository';
import { Order } from './order.entity';
import { Payment } from './payment.entity';
import { lockRowsWhere } from '../../common/database/row-locks';

/** The module's tables besides coupons' (see couponTables). */
export const certificateTables = TypeOrmModule.forFeature([
  Certificate,
  CertificateUses,
  Order,
  Payment,
]);

type Lock = { tx?: EntityManager; forUpdate?: boolean };

@Injectable()
export class CertificateRepository extends TenantRepository<Certificate> {
  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly coupons: CouponRepository,
  ) {
    super(dataSource, Certificate);
  }

  /** The account's live certificates, by id; `filter` as `GET /certificates` reads it. */
  listWhere(
    accountId: number,
    filter: { productId?: number; orderId?: number; email?: string },
  ): Promise<Certificate[]> {
    return this.rows().find({
      where: { accountId, deletedAt: IsNull(), ...filter },
      order: { id: 'ASC' },
    });
  }

  /** The product a certificate or an order is for: 400 unknown or deleted, 403 another's. */
  async product(accountId: number, productId: number, tx?: EntityManager): Promise<Product> {
    const manager = tx ?? this.dataSource.manager;
    const missing = (id: number) => new InvalidProductError(id);
    return (await findReferenced(manager, Product, accountId, [productId], missing))[0];
  }

  /** The product as it is now, even if since hidden or deleted: what an order's buyer paid for. */
  productAsItIs(tx: EntityManager, productId: number): Promise<Product> {
    return tx.findOneByOrFail(Product, { id: productId });
  }

  async codesOfOrders(orderIds: readonly number[]): Promise<Map<number, string[]>> {
    const codes = new Map<number, string[]>(orderIds.map((id) => [id, []]));
    if (orderIds.length === 0) return codes;
    const issued = await this.rows().find({
      select: { orderId: true, code: true },
      where: { orderId: In(orderIds) },
      order: { id: 'ASC' },
    });
    for (const { orderId, code } of issued) codes.get(orderId!)?.push(code);
    return codes;
  }

  /**
   * The account's live certificate of this code, else its live coupon of this code. `forUpdate`
   * locks the certificate (a written lock, docs/architecture.md) until the caller's transaction
   * ends: bookings using it queue, each reading the uses its predecessor left.
   */
  async resolveCode(
    accountId: number,
    code: string,
    { tx, forUpdate = false }: Lock = {},
  ): Promise<ResolvedCertificate | null> {
    if (forUpdate && tx)
      await lockRowsWhere(tx, 'certificates', 'account_id = ? AND code = ?', [accountId, code]);
    const certificate = await this.rows(tx).findOne({ where: { accountId, code } });
    if (certificate) {
      if (certificate.deletedAt) return null;
      const [resolved] = await this.resolveAll([certificate], { tx });
      // A coupon certificate whose coupon was deleted is no longer valid.
      const liveCoupon = resolved.coupon !== null && resolved.coupon.deletedAt === null;
      return certificate.kind === 'coupon' && !liveCoupon ? null : resolved;
    }
    const coupon = await this.coupons.liveByCode(accountId, code, tx);
    if (!coupon) return null;
    return {
      code,
      certificate: null,
      coupon,
      couponTypeIds: await this.coupons.typeIdsOf(coupon.id, tx),
      uses: new Map(),
    };
  }

  /** The coupons and uses of certificates, in a few queries whatever their number. */
  async resolveAll(
    certificates: Certificate[],
    { tx }: { tx?: EntityManager } = {},
  ): Promise<ResolvedCertificate[]> {
    if (certificates.length === 0) return [];
    const couponIds = [...new Set(certificates.map((c) => c.couponId).filter((id) => id !== null))];
    const [coupons, couponTypes, uses] = await Promise.all([
      this.coupons.byIds(couponIds, tx),
      this.coupons.typeIds(couponIds, tx),
      (tx ?? this.dataSource.manager).find(CertificateUses, {
        where: { certificateId: In(certificates.map((c) => c.id)) },
      }),
    ]);
    const couponById = new Map(coupons.map((c) => [c.id, c]));
    return certificates.map((certificate) => ({
      code: certificate.code,
      certificate,
      coupon: certificate.couponId === null ? null : (couponById.get(certificate.couponId) ?? null),
      couponTypeIds:
        certificate.couponId === null ? [] : (couponTypes.get(certificate.couponId) ?? []),
      uses: new Map(
        uses
          .filter((u) => u.certificateId === certificate.id)
          .map((u) => [u.appointmentTypeId, u.remaining]),
      ),
    }));
  }

  /** Takes one use of the package for the type, never below zero: false when none was left. */
  async consumeUse(
    tx: EntityManager,
    certificateId: number,
    appointmentTypeId: number,
  ): Promise<boolean> {
    const left = { certificateId, appointmentTypeId, remaining: MoreThan(0) };
    return Boolean((await tx.decrement(CertificateUses, left, 'remaining', 1)).affected);
  }

  async releaseUse(
    tx: EntityManager,
    certificateId: number,
    appointmentTypeId: number,
  ): Promise<void> {
    await tx.increment(CertificateUses, { certificateId, appointmentTypeId }, 'remaining', 1);
  }

  /**
   * With its chosen code (400 when a certificate or a coupon has it) or a generated one (drawn again
   * on a collision). A package's uses are its product's counts per live type.
   */
  async issue(
    tx: EntityManager,
    row: Omit<Certificate, 'id' | 'code'>,
    chosen?: string,
  ): Promise<Certificate> {
    if (chosen !== undefined && (await this.coupons.codeTaken(tx, row.accountId, chosen)))
      throw new CertificateCodeInUseError(chosen);
    let certificate: Certificate | undefined;
    for (let attempt = 0; !certificate; attempt++) {
      const code = chosen ?? generateCode();
      try {
        // A savepoint: a refused insert must not end the caller's transaction.
        certificate = await tx.transaction((inner) =>
          inner.save(Object.assign(new Certificate(), { ...row, code })),
        );
      } catch (e) {
        if (!isDuplicateEntry(e)) throw e;
        if (chosen !== undefined) throw new CertificateCodeInUseError(chosen);
        if (attempt >= 4) throw e;
      }
    }
    if (row.kind === 'package' && row.productId !== null) {
      const counts = await tx
        .createQueryBuilder(ProductAppointmentType, 'pc')
        .innerJoin(AppointmentType, 't', 't.id = pc.appointmentTypeId AND t.deletedAt IS NULL')
        .where('pc.productId = :productId', { productId: row.productId })
        .getMany();
      if (counts.length > 0)
        await tx.insert(
          CertificateUses,
          counts.map((c) => ({
            certificateId: certificate.id,
            appointmentTypeId: c.appointmentTypeId,
            remaining: c.count,
          })),
        );
    }
    return certificate;
  }
}
