import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Account } from '../accounts';
import { CertificateRepository } from './certificate.repository';
import type { Order } from './order.entity';
import { OrderRepository } from './order.repository';
import { type OrderView, toOrderView } from './order.view';
import { PaymentRepository } from './payment.repository';
import { type PaymentView, toPaymentView } from './payment.view';

const DEFAULT_ORDERS_MAX = 100;

/** Newest first. */
export class ListOrdersQuery extends Query<OrderView[]> {
  constructor(
    readonly account: Account,
    readonly max = DEFAULT_ORDERS_MAX,
  ) {
    super();
  }
}

@QueryHandler(ListOrdersQuery)
export class ListOrdersHandler implements IQueryHandler<ListOrdersQuery> {
  constructor(
    private readonly orders: OrderRepository,
    private readonly certificates: CertificateRepository,
  ) {}

  async execute({ account, max }: ListOrdersQuery): Promise<OrderView[]> {
    return orderViews(this.certificates, account, await this.orders.newest(account.id, max));
  }
}

export class GetOrderQuery extends Query<OrderView> {
  constructor(
    readonly account: Account,
    readonly id: number,
  ) {
    super();
  }
}

@QueryHandler(GetOrderQuery)
export class GetOrderHandler implements IQueryHandler<GetOrderQuery> {
  constructor(
    private readonly orders: OrderRepository,
    private readonly certificates: CertificateRepository,
  ) {}

  async execute({ account, id }: GetOrderQuery): Promise<OrderView> {
    const order = await this.orders.find(account.id, id);
    const [view] = await orderViews(this.certificates, account, [order]);
    return view;
  }
}

/** The order's payments and refunds, oldest first, times in the account's zone. */
export class ListOrderPaymentsQuery extends Query<PaymentView[]> {
  constructor(
    readonly account: Account,
    readonly id: number,
  ) {
    super();
  }
}

@QueryHandler(ListOrderPaymentsQuery)
export class ListOrderPaymentsHandler implements IQueryHandler<ListOrderPaymentsQuery> {
  constructor(
    private readonly orders: OrderRepository,
    private readonly payments: PaymentRepository,
  ) {}

  async execute({ account, id }: ListOrderPaymentsQuery): Promise<PaymentView[]> {
    const order = await this.orders.find(account.id, id);
    const payments = await this.payments.list(account.id, { kind: 'order', id: order.id });
    return payments.map((payment) => toPaymentView(payment, account.timezone));
  }
}

async function orderViews(
  certificates: CertificateRepository,
  account: Account,
  orders: Order[],
): Promise<OrderView[]> {
  const codes = await certificates.codesOfOrders(orders.map((order) => order.id));
  return orders.map((order) => toOrderView(order, codes.get(order.id) ?? [], account.timezone));
}
