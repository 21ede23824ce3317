import { ApiProperty } from '@nestjs/swagger';
import { formatCents } from '../../common/money/money';
import { formatInZone } from '../../common/time/datetimes';
import { ORDER_STATUSES, type Order } from './order.entity';

/** `GET /orders/{id}`, as clients of the reference service know it. */
export class OrderView {
  @ApiProperty({ example: 17 })
  id!: number;

  @ApiProperty({ description: "The product's price when ordered.", example: '120.00' })
  total!: string;

  @ApiProperty({
    enum: ORDER_STATUSES,
    description:
      '`paid` once its payments cover its total (or PUT /orders/{id}/complete), `unpaid` before ' +
      'and again after a refund takes them below it.',
    example: 'paid',
  })
  status!: Order['status'];

  @ApiProperty({
    description: "When it was placed, in the account's zone.",
    example: '2026-03-03T14:30:00-0500',
  })
  time!: string;

  @ApiProperty({ example: 'Ada' })
  firstName!: string;

  @ApiProperty({ example: 'Lovelace' })
  lastName!: string;

  @ApiProperty({ example: '' })
  phone!: string;

  @ApiProperty({ example: 'ada@example.com' })
  email!: string;

  @ApiProperty({ description: "The product's name when ordered.", example: 'Pack of 5' })
  title!: string;

  @ApiProperty({ example: '' })
  notes!: string;

  @ApiProperty({ example: 3 })
  productID!: number;

  @ApiProperty({
    type: [String],
    description: 'The codes of the certificates it issued (once paid).',
    example: ['A1B2C3D4'],
  })
  certificates!: string[];
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
