import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { findOwned, findReferenced } from '../../common/database/tenant-rows';
import { DomainEventPublisher } from '../../common/outbox/domain-event-publisher';
import { Outbox, type PendingEvents } from '../../common/outbox/outbox';
import type { Account } from '../accounts';
import { InvalidProductError, Product } from '../catalog';
import { Certificate } from './certificate.entity';
import { CertificatesService } from './certificates.service';
import { OrderCompletedEvent } from './order-completed.event';
import { Order } from './order.entity';
import type { CreateOrderRequest } from './order.requests';
import { type OrderView, toOrderView } from './order.view';

export const DEFAULT_ORDERS_MAX = 100;

/**
 * Orders of products. This service's own `POST /orders` and `PUT /orders/{id}/complete` stand where a
 * payment integration would report a sale and its payment.
 */
@Injectable()
export class OrdersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly certificates: CertificatesService,
    private readonly outbox: Outbox,
    private readonly events: DomainEventPublisher,
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
   * Marks the order paid, issues its product's certificate for the buyer and records
   * `order.completed`, all in one transaction. The order row is locked first, so completing it again
   * (even at the same moment) finds it paid and changes nothing: one certificate, one event.
   */
  async complete(account: Account, id: number): Promise<OrderView> {
    const pending = await this.dataSource.transaction(async (tx): Promise<PendingEvents | null> => {
      const order = await findOwned(tx.getRepository(Order), account.id, id, { forUpdate: true });
      if (order.status !== 'unpaid') return null;
      // The product as it is now (even if since hidden or deleted): what the buyer paid for.
      const product = await tx.findOneByOrFail(Product, { id: order.productId });
      const certificate = await this.certificates.issueForProduct(tx, {
        account,
        product,
        email: order.email,
        orderId: order.id,
      });
      order.status = 'paid';
      order.completedAt = new Date();
      await tx.save(order);
      return this.outbox.record(tx, [
        new OrderCompletedEvent(account.id, {
          orderId: order.id,
          productId: product.id,
          certificateIds: [certificate.id],
        }),
      ]);
    });
    if (pending) this.events.publishAfterCommit(pending);
    return this.get(account, id);
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
