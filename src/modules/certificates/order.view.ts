import {
  classViewSchema,
  field,
  listOf,
  num,
  str,
  strEnum,
  type ViewType,
} from '../../common/openapi/view-schema';
import { formatCents } from '../../common/money/money';
import { formatInZone } from '../../common/time/datetimes';
import { ORDER_STATUSES, type Order } from './order.entity';

/** `GET /orders/{id}`, as clients of the reference service know it. */
export const ORDER_VIEW = classViewSchema('OrderView', {
  id: num(17),
  total: str('120.00', "The product's price when ordered."),
  status: strEnum(
    ORDER_STATUSES,
    'paid',
    '`paid` once its payments cover its total (or PUT /orders/{id}/complete), `unpaid` before ' +
      'and again after a refund takes them below it.',
  ),
  time: str('2026-03-03T14:30:00-0500', "When it was placed, in the account's zone."),
  firstName: str('Ada'),
  lastName: str('Lovelace'),
  phone: str(''),
  email: str('ada@example.com'),
  title: str('Pack of 5', "The product's name when ordered."),
  notes: str(''),
  productID: num(3),
  certificates: listOf(
    field<string>({ type: 'string' }),
    ['A1B2C3D4'],
    'The codes of the certificates it issued (once paid).',
  ),
});

export type OrderView = ViewType<typeof ORDER_VIEW>;

export function toOrderView(order: Order, certificates: string[], timezone: string): OrderView {
  return {
    id: order.id,
    total: formatCents(order.totalCents),
    status: order.status,
    time: formatInZone(order.createdAt, timezone),
    firstName: order.firstName,
    lastName: order.lastName,
    phone: order.phone,
    email: order.email,
    title: order.title,
    notes: order.notes,
    productID: order.productId,
    certificates,
  };
}
