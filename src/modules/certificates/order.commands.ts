import { Injectable } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler, QueryBus } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { type Emit, UnitOfWork } from '../../common/database/unit-of-work';
import { isPaidInFull } from '../../common/money/money';
import type { Account } from '../accounts';
import { productCertificate } from './certificate.commands';
import { CertificateRepository } from './certificate.repository';
import { OrderCompletedEvent } from './order-completed.event';
import { Order } from './order.entity';
import { GetOrderQuery } from './order.queries';
import { OrderRepository } from './order.repository';
import type { CreateOrderRequest } from './order.requests';
import type { OrderView } from './order.view';
import { PaymentLedger, retryTransactionIdRace } from './payment-ledger';
import { PaymentRepository } from './payment.repository';
import type { NewPayment } from './payment.requests';
import { type PaymentView, toPaymentView } from './payment.view';

/* Orders of products: this service's own stand-in for a payment integration reporting sales. */

export class CreateOrderCommand extends Command<OrderView> {
  constructor(
    readonly account: Account,
    readonly request: CreateOrderRequest,
  ) {
    super();
  }
}

@CommandHandler(CreateOrderCommand)
export class CreateOrderHandler implements ICommandHandler<CreateOrderCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly queries: QueryBus,
    private readonly orders: OrderRepository,
    private readonly certificates: CertificateRepository,
  ) {}

  async execute({ account, request }: CreateOrderCommand): Promise<OrderView> {
    const order = await this.unitOfWork.run(account.id, async (tx) => {
      const product = await this.certificates.product(account.id, request.productID, tx);
      const order = Object.assign(new Order(), {
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
      });
      return this.orders.save(order, tx);
    });
    return this.queries.execute(new GetOrderQuery(account, order.id));
  }
}

/**
 * Marks the order paid: what its payments do not cover is recorded as one `external` payment, then
 * it completes (markPaid). Its row is locked first, so completing it again (even at once) finds it
 * paid and changes nothing: one payment, one certificate, one event.
 */
export class CompleteOrderCommand extends Command<OrderView> {
  constructor(
    readonly account: Account,
    readonly id: number,
  ) {
    super();
  }
}

/** What paying an order takes: its row, its ledger, and markPaid. */
@Injectable()
abstract class OrderPaymentHandler {
  constructor(
    protected readonly unitOfWork: UnitOfWork,
    protected readonly queries: QueryBus,
    protected readonly orders: OrderRepository,
    protected readonly ledger: PaymentLedger,
    protected readonly payments: PaymentRepository,
    protected readonly certificates: CertificateRepository,
  ) {}

  /** Paid; the first time only, the product's certificate is issued and `order.completed` emitted. */
  protected async markPaid(tx: EntityManager, emit: Emit, account: Account, order: Order) {
    order.status = 'paid';
    if (!order.completedAt) {
      const product = await this.certificates.productAsItIs(tx, order.productId);
      const certificate = await this.certificates.issue(
        tx,
        productCertificate(account, product, { email: order.email, orderId: order.id }),
      );
      order.completedAt = new Date();
      emit(
        new OrderCompletedEvent(account.id, {
          orderId: order.id,
          productId: product.id,
          certificateIds: [certificate.id],
        }),
      );
    }
    await this.orders.save(order, tx);
  }
}

@CommandHandler(CompleteOrderCommand)
export class CompleteOrderHandler extends OrderPaymentHandler {
  async execute({ account, id }: CompleteOrderCommand): Promise<OrderView> {
    await this.unitOfWork.run(account.id, async (tx, emit) => {
      const order = await this.orders.find(account.id, id, { forUpdate: true, tx });
      if (order.status !== 'unpaid') return;
      const subject = { kind: 'order', id: order.id } as const;
      const paid = await this.payments.paidOn(tx, account.id, subject);
      const due = order.totalCents - paid;
      if (due > 0) await this.ledger.append(tx, account.id, subject, completion(due), paid);
      await this.markPaid(tx, emit, account, order);
    });
    return this.queries.execute(new GetOrderQuery(account, id));
  }
}

/**
 * A payment or a refund of the order (its row locked). Its status follows the ledger as an
 * appointment's `paid` does (isPaidInFull): `paid` once covered, `unpaid` again when a refund takes
 * it below its total. A free or delivered order keeps its status.
 */
export class RecordOrderPaymentCommand extends Command<PaymentView> {
  constructor(
    readonly account: Account,
    readonly id: number,
    readonly payment: NewPayment,
  ) {
    super();
  }
}

@CommandHandler(RecordOrderPaymentCommand)
export class RecordOrderPaymentHandler extends OrderPaymentHandler {
  async execute({ account, id, payment: request }: RecordOrderPaymentCommand) {
    const payment = await retryTransactionIdRace(() =>
      this.unitOfWork.run(account.id, async (tx, emit) => {
        const order = await this.orders.find(account.id, id, { forUpdate: true, tx });
        const subject = { kind: 'order', id: order.id } as const;
        const previous = await this.ledger.recorded(tx, account.id, subject, request);
        if (previous) return previous;
        const paid = await this.payments.paidOn(tx, account.id, subject);
        const payment = await this.ledger.append(tx, account.id, subject, request, paid);
        const covered = isPaidInFull(paid + payment.amountCents, order.totalCents);
        if (order.totalCents > 0 && order.status !== 'delivered') {
          if (covered && order.status === 'unpaid') await this.markPaid(tx, emit, account, order);
          if (!covered && order.status === 'paid')
            await this.orders.save(Object.assign(order, { status: 'unpaid' }), tx);
        }
        return payment;
      }),
    );
    return toPaymentView(payment, account.timezone);
  }
}

function completion(amountCents: number): NewPayment {
  return {
    amountCents,
    processor: 'external',
    transactionId: undefined,
    reason: 'Completed with PUT /orders/{id}/complete',
  };
}
