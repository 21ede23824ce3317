import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, In } from 'typeorm';
import { findOwned, findReferenced } from '../../common/database/tenant-rows';
import { UnitOfWork } from '../../common/database/unit-of-work';
import type { DomainEvent } from '../../common/outbox/domain-event';
import { isPaidInFull } from '../../common/money/money';
import type { Account } from '../accounts';
import { InvalidProductError, Product } from '../catalog';
import { Certificate } from './certificate.entity';
import { CertificatesService } from './certificates.service';
import { OrderCompletedEvent } from './order-completed.event';
import { Order } from './order.entity';
import type { CreateOrderRequest } from './order.requests';
import { PaymentLedger, retryTransactionIdRace } from './payment-ledger';
import type { PaymentSubject } from './payment.errors';
import type { NewPayment } from './payment.requests';
import { type PaymentView, toPaymentView } from './payment.view';
import { type OrderView, toOrderView } from './order.view';

export const DEFAULT_ORDERS_MAX = 100;

/**
 * Orders of products. This service's own `POST /orders`, `PUT /orders/{id}/complete` and
 * `POST /orders/{id}/payments` stand where a payment integration would report a sale and its
 * payments.
 */
@Injectable()
export class OrdersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly certificates: CertificatesService,
    private readonly unitOfWork: UnitOfWork,
    private readonly ledger: PaymentLedger,
  ) {}

  /** Newest first. */
  async list(account: Account, max = DEFAULT_ORDERS_MAX): Promise<OrderView[]> {
    const orders = await this.dataSource.manager.find(Order, {
      where: { accountId: account.id },
      order: { id: 'DESC' },
      take: max,
    });
    return this.views(account, orders);
  }

  async get(account: Account, id: number): Promise<OrderView> {
    const order = await findOwned(this.dataSource.getRepository(Order), account.id, id);
    const [view] = await this.views(account, [order]);
    return view;
  }

  async create(account: Account, request: CreateOrderRequest): Promise<OrderView> {
    const manager = this.dataSource.manager;
    const [product] = await findReferenced(
      manager,
      Product,
      account.id,
      [request.productID],
      (id) => new InvalidProductError(id),
    );
    const order = await manager.save(
      manager.create(Order, {
        accountId: account.id,
        productId: product.id,
        title: product.name,
        totalCents: product.priceCents,
        status: 'unpaid',
        firstName: request.firstName,
        lastName: request.lastName,
        email: request.email.toLowerCase(),
        phone: request.phone ?? '',
        notes: request.notes ?? '',
        createdAt: new Date(),
        completedAt: null,
      }),
    );
    return this.get(account, order.id);
  }

  /**
   * Marks the order paid, as a payment integration reporting the sale: what its payments do not
   * cover yet is recorded as one payment (`external`), then the order completes (see markPaid). The
   * order row is locked first, so completing it again (even at the same moment) finds it paid and
   * changes nothing: one payment, one certificate, one event.
   */
  async complete(account: Account, id: number): Promise<OrderView> {
    await this.transact(account.id, async (tx) => {
      const order = await findOwned(tx.getRepository(Order), account.id, id, { forUpdate: true });
      if (order.status !== 'unpaid') return { result: undefined, events: [] };
      const subject = orderSubject(order);
      const paid = await this.ledger.paidOn(tx, account.id, subject);
      if (paid < order.totalCents)
        await this.ledger.append(
          tx,
          account.id,
          subject,
          completion(order.totalCents - paid),
          paid,
        );
      return { result: undefined, events: await this.markPaid(tx, account, order) };
    });
    return this.get(account, id);
  }

  /** The order's payments and refunds, oldest first, times in the account's zone. */
  async payments(account: Account, id: number): Promise<PaymentView[]> {
    const order = await findOwned(this.dataSource.getRepository(Order), account.id, id);
    const payments = await this.ledger.list(account.id, orderSubject(order));
    return payments.map((payment) => toPaymentView(payment, account.timezone));
  }

  /**
   * Records a payment or a refund against the order (its row locked; a transaction id sent again
   * answers the payment it recorded). Its status then follows the ledger by the rule appointments'
   * `paid` follows (isPaidInFull): `paid` once its payments cover its total, `unpaid` again when a
   * refund takes them below it. A free order keeps its status; a delivered one too.
   */
  async recordPayment(account: Account, id: number, request: NewPayment): Promise<PaymentView> {
    const payment = await retryTransactionIdRace(() =>
      this.transact(account.id, async (tx) => {
        const order = await findOwned(tx.getRepository(Order), account.id, id, { forUpdate: true });
        const subject = orderSubject(order);
        const previous = await this.ledger.recorded(tx, account.id, subject, request);
        if (previous) return { result: previous, events: [] };
        const paid = await this.ledger.paidOn(tx, account.id, subject);
        const payment = await this.ledger.append(tx, account.id, subject, request, paid);
        const covered = isPaidInFull(paid + payment.amountCents, order.totalCents);
        let events: DomainEvent[] = [];
        if (order.totalCents > 0 && order.status !== 'delivered') {
          if (covered && order.status === 'unpaid')
            events = await this.markPaid(tx, account, order);
          if (!covered && order.status === 'paid')
            await tx.update(Order, { id: order.id }, { status: 'unpaid' });
        }
        return { result: payment, events };
      }),
    );
    return toPaymentView(payment, account.timezone);
  }

  /**
   * Paid. The first time, the order completes: its product's certificate is issued for the buyer
   * and `order.completed` recorded. Paid again after a refund, it issues nothing more.
   */
  private async markPaid(
    tx: EntityManager,
    account: Account,
    order: Order,
  ): Promise<DomainEvent[]> {
    order.status = 'paid';
    if (order.completedAt) {
      await tx.save(order);
      return [];
    }
    // The product as it is now (even if since hidden or deleted): what the buyer paid for.
    const product = await tx.findOneByOrFail(Product, { id: order.productId });
    const certificate = await this.certificates.issueForProduct(tx, {
      account,
      product,
      email: order.email,
      orderId: order.id,
    });
    order.completedAt = new Date();
    await tx.save(order);
    return [
      new OrderCompletedEvent(account.id, {
        orderId: order.id,
        productId: product.id,
        certificateIds: [certificate.id],
      }),
    ];
  }

  /** One unit of work for the account; the events it names are recorded in it. */
  private transact<T>(
    accountId: number,
    work: (tx: EntityManager) => Promise<{ result: T; events: DomainEvent[] }>,
  ): Promise<T> {
    return this.unitOfWork.run(accountId, async (tx, emit) => {
      const { result, events } = await work(tx);
      emit(...events);
      return result;
    });
  }

  private async views(account: Account, orders: Order[]): Promise<OrderView[]> {
    if (orders.length === 0) return [];
    const issued = await this.dataSource.manager.find(Certificate, {
      select: { orderId: true, code: true },
      where: { orderId: In(orders.map((o) => o.id)) },
      order: { id: 'ASC' },
    });
    return orders.map((order) =>
      toOrderView(
        order,
        issued.filter((c) => c.orderId === order.id).map((c) => c.code),
        account.timezone,
      ),
    );
  }
}

function orderSubject(order: Order): PaymentSubject {
  return { kind: 'order', id: order.id };
}

/** The payment PUT /orders/{id}/complete records for what is still due. */
function completion(amountCents: number): NewPayment {
  return {
    amountCents,
    processor: 'external',
    transactionId: undefined,
    reason: 'Completed with PUT /orders/{id}/complete',
  };
}
