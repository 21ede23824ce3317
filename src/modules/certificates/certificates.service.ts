import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DateTime } from 'luxon';
import { DataSource, type EntityManager, In, IsNull } from 'typeorm';
import { isDuplicateEntry } from '../../common/database/mysql-errors';
import { findOwned, findReferenced, softDeleteOwned } from '../../common/database/tenant-rows';
import type { Account } from '../accounts';
import { AppointmentType, InvalidProductError, Product, ProductAppointmentType } from '../catalog';
import { Coupon, CouponAppointmentType } from './coupon.entity';
import { CODE_PATTERN, generateCode, normalizeCode } from './certificate-codes';
import { Certificate, CertificateUses } from './certificate.entity';
import {
  CertificateCodeInUseError,
  CertificateUsesError,
  ExpiredCertificateError,
  InvalidCertificateError,
  InvalidCertificateTypeError,
  InvalidCouponError,
  MalformedCertificateCodeError,
  ProductAndCouponError,
  ProductOrCouponRequiredError,
} from './certificate.errors';
import type { CertificateQuery, CreateCertificateRequest } from './certificate.requests';
import {
  type CertificateView,
  type ResolvedCertificate,
  appointmentTypeIdsOf,
  expirationOf,
  kindOf,
  toCertificateView,
} from './certificate.view';

/** What issues a certificate: a product bought (or given), for a buyer. */
export interface ProductIssue {
  account: Account;
  product: Product;
  email: string | null;
  orderId: number | null;
  /** A code chosen by the owner; else one is generated. */
  code?: string;
}

/**
 * Certificates: issuing them, the owner's endpoints, and what booking calls inside its own
 * transaction: `validate` (the contract's four checks, in its order, the row locked) then
 * `consumeUse`; `releaseUse` when an appointment that used a package is canceled.
 */
@Injectable()
export class CertificatesService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** With `appointmentTypeID`: what a client could use for it now (not expired, a use left). */
  async list(account: Account, query: CertificateQuery): Promise<CertificateView[]> {
    const accountId = account.id;
    const manager = this.dataSource.manager;
    const where = {
      accountId,
      deletedAt: IsNull(),
      ...(query.productID !== undefined ? { productId: query.productID } : {}),
      ...(query.orderID !== undefined ? { orderId: query.orderID } : {}),
      ...(query.email !== undefined ? { email: query.email.trim().toLowerCase() } : {}),
    };
    const rows = await manager.find(Certificate, { where, order: { id: 'ASC' } });
    const resolved = await resolveAll(manager, rows);
    const typeId = query.appointmentTypeID;
    return resolved
      .filter((r) => typeId === undefined || (usableFor(r, typeId) && !expired(r, account)))
      .map(toCertificateView);
  }

  async get(accountId: number, id: number): Promise<CertificateView> {
    const manager = this.dataSource.manager;
    const row = await findOwned(manager.getRepository(Certificate), accountId, id);
    const [resolved] = await resolveAll(manager, [row]);
    return toCertificateView(resolved);
  }

  async create(account: Account, request: CreateCertificateRequest): Promise<CertificateView> {
    if (request.productID === undefined && request.couponID === undefined)
      throw new ProductOrCouponRequiredError();
    if (request.productID !== undefined && request.couponID !== undefined)
      throw new ProductAndCouponError();
    const email = request.email === undefined ? null : request.email.trim().toLowerCase();
    const code = request.certificate === undefined ? undefined : normalizeCode(request.certificate);
    if (code !== undefined && !CODE_PATTERN.test(code)) throw new MalformedCertificateCodeError();
    const certificate = await this.dataSource.transaction(async (tx) => {
      if (request.productID !== undefined) {
        const [product] = await findReferenced(
          tx,
          Product,
          account.id,
          [request.productID],
          (id) => new InvalidProductError(id),
        );
        return this.issueForProduct(tx, { account, product, email, orderId: null, code });
      }
      const [coupon] = await findReferenced(
        tx,
        Coupon,
        account.id,
        [request.couponID!],
        (id) => new InvalidCouponError(id),
      );
      return this.insertWithCode(tx, account.id, code, {
        accountId: account.id,
        kind: 'coupon',
        productId: null,
        couponId: coupon.id,
        orderId: null,
        name: coupon.name,
        email,
        remainingValueCents: null,
        expiration: null,
        deletedAt: null,
        createdAt: new Date(),
      });
    });
    return this.get(account.id, certificate.id);
  }

  /** Soft delete: the code stays taken (appointments that used it still name it). */
  async delete(accountId: number, id: number): Promise<void> {
    await softDeleteOwned(this.dataSource.getRepository(Certificate), accountId, id);
  }

  /** `GET /certificates/check`: the certificate, or the error booking with it would give. */
  async check(
    account: Account,
    code: string,
    appointmentTypeId: number,
    email: string | undefined,
  ): Promise<CertificateView> {
    const resolved = await this.validate(
      this.dataSource.manager,
      account,
      code,
      appointmentTypeId,
      email,
    );
    return toCertificateView(resolved);
  }

  /**
   * The contract's checks, in its order: `invalid_certificate` (no such code, or it belongs to
   * another e-mail), `expired_certificate`, `invalid_certificate_type`, `certificate_uses`. With
   * `forUpdate` (inside the caller's transaction) the certificate and its uses are locked until the
   * caller commits, so that two bookings racing for a package's last use are served one at a time.
   */
  async validate(
    tx: EntityManager,
    account: Account,
    code: string,
    appointmentTypeId: number,
    email: string | null | undefined,
    options: { forUpdate?: boolean } = {},
  ): Promise<ResolvedCertificate> {
    const normalized = normalizeCode(code);
    const resolved = await resolveCode(tx, account.id, normalized, options.forUpdate ?? false);
    if (!resolved) throw new InvalidCertificateError(code);
    const owner = resolved.certificate?.email;
    if (owner && owner !== (email ?? '').trim().toLowerCase())
      throw new InvalidCertificateError(code);
    if (expired(resolved, account)) throw new ExpiredCertificateError(code);
    if (!usableFor(resolved, appointmentTypeId, { ignoreUses: true }))
      throw new InvalidCertificateTypeError(code, appointmentTypeId);
    if (kindOf(resolved) === 'package' && (resolved.uses.get(appointmentTypeId) ?? 0) < 1)
      throw new CertificateUsesError(code, appointmentTypeId);
    return resolved;
  }

  /** Takes one use of a package for the type (nothing for other kinds); never below zero. */
  async consumeUse(
    tx: EntityManager,
    resolved: ResolvedCertificate,
    appointmentTypeId: number,
  ): Promise<void> {
    if (kindOf(resolved) !== 'package' || !resolved.certificate) return;
    const result = await tx
      .createQueryBuilder()
      .update(CertificateUses)
      .set({ remaining: () => 'remaining - 1' })
      .where('certificate_id = :id AND appointment_type_id = :type AND remaining > 0', {
        id: resolved.certificate.id,
        type: appointmentTypeId,
      })
      .execute();
    if (!result.affected) throw new CertificateUsesError(resolved.code, appointmentTypeId);
    resolved.uses.set(appointmentTypeId, (resolved.uses.get(appointmentTypeId) ?? 1) - 1);
  }

  /** Gives back the use an appointment took (it was canceled). */
  async releaseUse(
    tx: EntityManager,
    certificateId: number,
    appointmentTypeId: number,
  ): Promise<void> {
    await tx
      .createQueryBuilder()
      .update(CertificateUses)
      .set({ remaining: () => 'remaining + 1' })
      .where('certificate_id = :id AND appointment_type_id = :type', {
        id: certificateId,
        type: appointmentTypeId,
      })
      .execute();
  }

  /**
   * Issues a product's certificate in the caller's transaction: a package (a product of type
   * `appointments` or `subscription`: its counts per live type) or a gift certificate worth the
   * product's price; it expires `expires` days from today (the account's zone) when the product says.
   */
  async issueForProduct(tx: EntityManager, issue: ProductIssue): Promise<Certificate> {
    const { account, product } = issue;
    const gift = product.kind === 'gift';
    const expiration =
      product.expiresDays === null
        ? null
        : DateTime.now().setZone(account.timezone).plus({ days: product.expiresDays }).toISODate()!;
    const certificate = await this.insertWithCode(tx, account.id, issue.code, {
      accountId: account.id,
      kind: gift ? 'gift' : 'package',
      productId: product.id,
      couponId: null,
      orderId: issue.orderId,
      name: product.name,
      email: issue.email,
      remainingValueCents: gift ? product.priceCents : null,
      expiration,
      deletedAt: null,
      createdAt: new Date(),
    });
    if (!gift) {
      const counts = await tx
        .createQueryBuilder(ProductAppointmentType, 'pc')
        .innerJoin(AppointmentType, 't', 't.id = pc.appointmentTypeId AND t.deletedAt IS NULL')
        .where('pc.productId = :productId', { productId: product.id })
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

  /**
   * Inserts the certificate with its chosen code (400 when another certificate or a coupon has it)
   * or a generated one (drawn again on the rare collision).
   */
  private async insertWithCode(
    tx: EntityManager,
    accountId: number,
    chosen: string | undefined,
    row: Omit<Certificate, 'id' | 'code'>,
  ): Promise<Certificate> {
    if (chosen !== undefined && (await tx.existsBy(Coupon, { accountId, code: chosen })))
      throw new CertificateCodeInUseError(chosen);
    for (let attempt = 0; ; attempt++) {
      const code = chosen ?? generateCode();
      try {
        // A savepoint: a refused insert must not end the caller's transaction.
        return await tx.transaction((inner) =>
          inner.save(inner.create(Certificate, { ...row, code })),
        );
      } catch (e) {
        if (!isDuplicateEntry(e)) throw e;
        if (chosen !== undefined) throw new CertificateCodeInUseError(chosen);
        if (attempt >= 4) throw e;
      }
    }
  }
}

function today(account: Account): string {
  return DateTime.now().setZone(account.timezone).toISODate()!;
}

/** Past its last day (the account's zone). */
function expired(resolved: ResolvedCertificate, account: Account): boolean {
  const expiration = expirationOf(resolved);
  return expiration !== null && today(account) > expiration;
}

/** Whether it applies to the type (and, for a package, has a use left for it unless `ignoreUses`). */
function usableFor(
  resolved: ResolvedCertificate,
  appointmentTypeId: number,
  options: { ignoreUses?: boolean } = {},
): boolean {
  const kind = kindOf(resolved);
  if (kind === 'gift') return true;
  if (kind === 'coupon') {
    if (!liveCoupon(resolved)) return false;
    const types = appointmentTypeIdsOf(resolved);
    return types.length === 0 || types.includes(appointmentTypeId);
  }
  const left = resolved.uses.get(appointmentTypeId);
  return left !== undefined && (options.ignoreUses || left > 0);
}

/** Whether its coupon (of a coupon certificate or code) still exists. */
function liveCoupon(resolved: ResolvedCertificate): boolean {
  return resolved.coupon !== null && resolved.coupon.deletedAt === null;
}

/** A live certificate of the account with this code, else a live coupon whose own code it is. */
async function resolveCode(
  tx: EntityManager,
  accountId: number,
  code: string,
  forUpdate: boolean,
): Promise<ResolvedCertificate | null> {
  const lock = forUpdate ? { lock: { mode: 'pessimistic_write' as const } } : {};
  const certificate = await tx.findOne(Certificate, { where: { accountId, code }, ...lock });
  if (certificate) {
    if (certificate.deletedAt) return null;
    const [resolved] = await resolveAll(tx, [certificate], forUpdate);
    // A coupon certificate whose coupon was deleted is no longer valid.
    return certificate.kind === 'coupon' && !liveCoupon(resolved) ? null : resolved;
  }
  const coupon = await tx.findOneBy(Coupon, { accountId, code, deletedAt: IsNull() });
  if (!coupon) return null;
  const types = await tx.findBy(CouponAppointmentType, { couponId: coupon.id });
  return {
    code,
    certificate: null,
    coupon,
    couponTypeIds: types.map((t) => t.appointmentTypeId).sort((a, b) => a - b),
    uses: new Map(),
  };
}

/** The coupons and uses of certificates, in a few queries whatever their number. */
async function resolveAll(
  tx: EntityManager,
  certificates: Certificate[],
  forUpdate = false,
): Promise<ResolvedCertificate[]> {
  if (certificates.length === 0) return [];
  const couponIds = [...new Set(certificates.map((c) => c.couponId).filter((id) => id !== null))];
  const [coupons, couponTypes, uses] = await Promise.all([
    // Deleted ones too: a certificate keeps showing the terms it was issued with.
    couponIds.length ? tx.findBy(Coupon, { id: In(couponIds) }) : [],
    couponIds.length ? tx.findBy(CouponAppointmentType, { couponId: In(couponIds) }) : [],
    tx.find(CertificateUses, {
      where: { certificateId: In(certificates.map((c) => c.id)) },
      ...(forUpdate ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    }),
  ]);
  const couponById = new Map(coupons.map((c) => [c.id, c]));
  return certificates.map((certificate) => ({
    code: certificate.code,
    certificate,
    coupon: certificate.couponId === null ? null : (couponById.get(certificate.couponId) ?? null),
    couponTypeIds: couponTypes
      .filter((t) => t.couponId === certificate.couponId)
      .map((t) => t.appointmentTypeId)
      .sort((a, b) => a - b),
    uses: new Map(
      uses
        .filter((u) => u.certificateId === certificate.id)
        .map((u) => [u.appointmentTypeId, u.remaining]),
    ),
  }));
}
