import { formatCents } from '../../common/money/money';
import type { Coupon } from './coupon.entity';
import { CERTIFICATE_KINDS, type Certificate, type CertificateKind } from './certificate.entity';
import {
  date,
  id,
  list,
  money,
  oneOf,
  orNull,
  text,
  viewSchema,
  type ViewType,
} from '../../common/openapi/view-schema';

/** `GET /certificates`, as clients of the reference service know it. */
export type CertificateView = ViewType<typeof CERTIFICATE_VIEW>;

/** A certificate as validation and the views see it: the row, or a coupon's own code. */
export interface ResolvedCertificate {
  code: string;
  certificate: Certificate | null;
  /** The coupon of a coupon certificate or of a coupon code. */
  coupon: Coupon | null;
  couponTypeIds: number[];
  /** Uses left per type of a package. */
  uses: Map<number, number>;
}

export function kindOf(resolved: ResolvedCertificate): CertificateKind {
  return resolved.certificate?.kind ?? 'coupon';
}

/** The last day it can be used: a coupon's own, else the certificate's. */
export function expirationOf(resolved: ResolvedCertificate): string | null {
  return resolved.coupon ? resolved.coupon.expiration : (resolved.certificate?.expiration ?? null);
}

/** Empty: every type (gift certificates, coupons for all). */
export function appointmentTypeIdsOf(resolved: ResolvedCertificate): number[] {
  if (kindOf(resolved) === 'package') return [...resolved.uses.keys()].sort((a, b) => a - b);
  if (kindOf(resolved) === 'coupon') return resolved.couponTypeIds;
  return [];
}

export function toCertificateView(resolved: ResolvedCertificate): CertificateView {
  const { certificate, coupon } = resolved;
  const kind = kindOf(resolved);
  return {
    id: certificate?.id ?? null,
    certificate: resolved.code,
    productID: certificate?.productId ?? null,
    orderID: certificate?.orderId ?? null,
    couponID: coupon?.id ?? certificate?.couponId ?? null,
    appointmentTypeIDs: appointmentTypeIdsOf(resolved),
    name: certificate?.name ?? coupon?.name ?? '',
    email: certificate?.email ?? null,
    type: kind,
    remainingCounts:
      kind === 'package'
        ? Object.fromEntries(
            [...resolved.uses.entries()].sort(([a], [b]) => a - b).map(([t, n]) => [String(t), n]),
          )
        : null,
    remainingValue:
      kind === 'gift' && certificate?.remainingValueCents != null
        ? formatCents(certificate.remainingValueCents)
        : null,
    expiration: expirationOf(resolved),
    discountType: coupon?.discountType ?? null,
    discountAmount: coupon ? formatCents(coupon.discountAmount) : null,
  };
}

export const CERTIFICATE_VIEW = viewSchema('CertificateView', {
  id: orNull(id(9, "null for a coupon's own code.")),
  certificate: text('A1B2C3D4'),
  productID: orNull(id(3)),
  orderID: orNull(id(17)),
  couponID: orNull(id(4)),
  appointmentTypeIDs: list(id(12), 'Empty: every type.'),
  name: text('Pack of 5'),
  email: orNull(text('ada@example.com')),
  type: oneOf(CERTIFICATE_KINDS, 'package'),
  remainingCounts: orNull<Record<string, number>>({
    type: 'object',
    description: 'Uses left per type id (packages).',
    additionalProperties: { type: 'integer' },
    example: { '12': 4 },
  }),
  remainingValue: orNull(money('25.00', 'Value left (gift certificates).')),
  expiration: orNull(date('2031-06-03')),
  discountType: orNull(oneOf(['percentage', 'price'])),
  discountAmount: orNull(money('15.00')),
});
