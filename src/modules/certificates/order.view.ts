import { formatCents } from '../../common/money/money';
import { formatInZone } from '../../common/time/datetimes';
import type { Order } from './order.entity';

/** `GET /orders/{id}`, as clients of the reference service know it. */
export interface OrderView {
  id: number;
  total: string;
  status: Order['status'];
  /** When it was placed, in the account's zone. */
  time: string;
  firstName: string;
  lastName: string;
  phone: string;
  email: string;
  title: string;
  notes: string;
  productID: number;
  /** The codes of the certificates it issued (once paid). */
  certificates: string[];
}

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
