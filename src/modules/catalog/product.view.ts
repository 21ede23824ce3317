import { formatCents } from '../../common/money/money';
import type { Product, ProductAppointmentType } from './product.entity';
import {
  field,
  flag,
  id,
  int,
  list,
  money,
  oneOf,
  orNull,
  text,
  viewSchema,
  type ViewType,
} from '../../common/openapi/view-schema';
import { PRODUCT_KINDS } from './product.entity';

/** `GET /products`, as clients of the reference service know it. */
export type ProductView = ViewType<typeof PRODUCT_VIEW>;

/** `links`: the product's links to live types, by type id ascending (see liveTypeLinks). */
export function toProductView(product: Product, links: ProductAppointmentType[]): ProductView {
  return {
    id: product.id,
    name: product.name,
    description: product.description,
    price: formatCents(product.priceCents),
    type: product.kind,
    hidden: product.hidden,
    expires: product.expiresDays,
    appointmentTypeIDs: links.map((link) => link.appointmentTypeId),
    appointmentTypeCounts: Object.fromEntries(
      links.map((link) => [String(link.appointmentTypeId), link.count]),
    ),
  };
}

export const PRODUCT_VIEW = viewSchema('ProductView', {
  id: id(3),
  name: text('Pack of 5'),
  description: text(''),
  price: money('120.00'),
  type: oneOf(PRODUCT_KINDS, 'appointments'),
  hidden: flag(false),
  expires: orNull(int(365, 'Days a certificate issued from it stays valid; null: never expires.')),
  appointmentTypeIDs: list(id(12)),
  appointmentTypeCounts: field<Record<string, number>>({
    type: 'object',
    description: 'Uses per appointment type id (packages).',
    additionalProperties: { type: 'integer', minimum: 1 },
    example: { '12': 5 },
  }),
});
