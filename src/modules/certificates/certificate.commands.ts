import { Command, CommandHandler, type ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { AccountItemAction, SoftDeleteHandler } from '../../common/cqrs/account-messages';
import { DateTime } from 'luxon';
import { UnitOfWork } from '../../common/database/unit-of-work';
import type { Account } from '../accounts';
import type { Product } from '../catalog';
import { CODE_PATTERN, normalizeCode } from './certificate-codes';
import type { Certificate } from './certificate.entity';
import {
  InvalidCouponError,
  MalformedCertificateCodeError,
  ProductAndCouponError,
  ProductOrCouponRequiredError,
} from './certificate.errors';
import { GetCertificateQuery } from './certificate.queries';
import { CertificateRepository } from './certificate.repository';
import type { CreateCertificateRequest } from './certificate.requests';
import type { CertificateView } from './certificate.view';
import { CouponRepository } from './coupon.repository';

/**
 * The certificate a product issues: a gift certificate worth its price, else a package (its counts
 * per live type); it expires `expires` days from today (the account's zone) when the product says.
 */
export function productCertificate(
  account: Account,
  product: Product,
  buyer: { email: string | null; orderId: number | null },
): Omit<Certificate, 'id' | 'code'> {
  const gift = product.kind === 'gift';
  return {
    accountId: account.id,
    kind: gift ? 'gift' : 'package',
    productId: product.id,
    couponId: null,
    orderId: buyer.orderId,
    name: product.name,
    email: buyer.email,
    remainingValueCents: gift ? product.priceCents : null,
    expiration:
      product.expiresDays === null
        ? null
        : DateTime.now().setZone(account.timezone).plus({ days: product.expiresDays }).toISODate()!,
    deletedAt: null,
    createdAt: new Date(),
  };
}

export class CreateCertificateCommand extends Command<CertificateView> {
  constructor(
    readonly account: Account,
    readonly request: CreateCertificateRequest,
  ) {
    super();
  }
}

/** A product's certificate (as if bought) or a coupon's, for a buyer; with a chosen code or not. */
@CommandHandler(CreateCertificateCommand)
export class CreateCertificateHandler implements ICommandHandler<CreateCertificateCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly queries: QueryBus,
    private readonly certificates: CertificateRepository,
    private readonly coupons: CouponRepository,
  ) {}

  async execute({ account, request }: CreateCertificateCommand): Promise<CertificateView> {
    if (request.productID === undefined && request.couponID === undefined)
      throw new ProductOrCouponRequiredError();
    if (request.productID !== undefined && request.couponID !== undefined)
      throw new ProductAndCouponError();
    const email = request.email === undefined ? null : request.email.trim().toLowerCase();
    const code = request.certificate === undefined ? undefined : normalizeCode(request.certificate);
    if (code !== undefined && !CODE_PATTERN.test(code)) throw new MalformedCertificateCodeError();
    const certificate = await this.unitOfWork.run(account.id, async (tx) => {
      if (request.productID !== undefined) {
        const product = await this.certificates.product(account.id, request.productID, tx);
        const row = productCertificate(account, product, { email, orderId: null });
        return this.certificates.issue(tx, row, code);
      }
      const [coupon] = await this.coupons.referenced(
        account.id,
        [request.couponID!],
        (id) => new InvalidCouponError(id),
        tx,
      );
      const row = {
        accountId: account.id,
        kind: 'coupon' as const,
        productId: null,
        couponId: coupon.id,
        orderId: null,
        name: coupon.name,
        email,
        remainingValueCents: null,
        expiration: null,
        deletedAt: null,
        createdAt: new Date(),
      };
      return this.certificates.issue(tx, row, code);
    });
    return this.queries.execute(new GetCertificateQuery(account.id, certificate.id));
  }
}

/** Soft delete: the code stays taken (appointments that used it still name it). */
export class DeleteCertificateCommand extends AccountItemAction {}

@CommandHandler(DeleteCertificateCommand)
export class DeleteCertificateHandler extends SoftDeleteHandler(CertificateRepository) {}
