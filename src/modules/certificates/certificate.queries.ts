import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AccountItemQuery, GetHandler } from '../../common/cqrs/account-messages';
import type { Certificate } from './certificate.entity';
import type { Account } from '../accounts';
import { CertificateRedemptions, expired, usableFor } from './certificate-redemptions';
import { CertificateRepository } from './certificate.repository';
import type { CheckCertificateRequest, ListCertificatesRequest } from './certificate.requests';
import { type CertificateView, toCertificateView } from './certificate.view';

/** With `appointmentTypeID`: what a client could use for it now (not expired, a use left). */
export class ListCertificatesQuery extends Query<CertificateView[]> {
  constructor(
    readonly account: Account,
    readonly request: ListCertificatesRequest,
  ) {
    super();
  }
}

@QueryHandler(ListCertificatesQuery)
export class ListCertificatesHandler implements IQueryHandler<ListCertificatesQuery> {
  constructor(private readonly certificates: CertificateRepository) {}

  async execute({ account, request }: ListCertificatesQuery): Promise<CertificateView[]> {
    const filter = {
      ...(request.productID !== undefined ? { productId: request.productID } : {}),
      ...(request.orderID !== undefined ? { orderId: request.orderID } : {}),
      ...(request.email !== undefined ? { email: request.email.trim().toLowerCase() } : {}),
    };
    const rows = await this.certificates.listWhere(account.id, filter);
    const resolved = await this.certificates.resolveAll(rows);
    const typeId = request.appointmentTypeID;
    return resolved
      .filter((r) => typeId === undefined || (usableFor(r, typeId) && !expired(r, account)))
      .map(toCertificateView);
  }
}

export class GetCertificateQuery extends AccountItemQuery<CertificateView> {}

@QueryHandler(GetCertificateQuery)
export class GetCertificateHandler extends GetHandler(
  CertificateRepository,
  async (certificates: Certificate[], rows) =>
    (await rows.resolveAll(certificates)).map(toCertificateView),
) {}

/** `GET /certificates/check`: the certificate, or the error booking with it would give. */
export class CheckCertificateQuery extends Query<CertificateView> {
  constructor(
    readonly account: Account,
    readonly request: CheckCertificateRequest,
  ) {
    super();
  }
}

@QueryHandler(CheckCertificateQuery)
export class CheckCertificateHandler implements IQueryHandler<CheckCertificateQuery> {
  constructor(private readonly redemptions: CertificateRedemptions) {}

  async execute({ account, request }: CheckCertificateQuery): Promise<CertificateView> {
    const { certificate, appointmentTypeID, email } = request;
    return toCertificateView(
      await this.redemptions.validate(undefined, account, certificate, appointmentTypeID, email),
    );
  }
}
