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

/*
 * Orders of products. This service's own `POST /orders`, `PUT /orders/{id}/complete` and
 * `POST /orders/{id}/payments` stand where a payment integration would report a sale and its
 * payments.
 */

/** An unpaid order of a product. */
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
 * Marks the order paid, as a payment integration reporting the sale: what its payments do not
 * cover yet is recorded as one payment (`external`), then the order completes (see markPaid).
 * The order row is locked first, so completing it again (even at the same moment) finds it paid and
 * changes nothing: one payment, one certificate, one event.
 */
export class CompleteOrderCommand extends Command<OrderView> {
  constructor(
    readonly account: Account,
    readonly id: number,
  ) {
    super();
  }
}

@CommandHandler(CompleteOrderCommand)
export class CompleteOrderHandler implements ICommandHandler<CompleteOrderCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly queries: QueryBus,
    private readonly orders: OrderRepository,
    private readonly ledger: PaymentLedger,
    private readonly payments: PaymentRepository,
    private readonly certificates: CertificateRepository,
  ) {}

  async execute({ account, id }: CompleteOrderCommand): Promise<OrderView> {
    await this.unitOfWork.run(account.id, async (tx, emit) => {
      const order = await this.orders.find(account.id, id, { forUpdate: true, tx });
      if (order.status !== 'unpaid') return;
      const subject = { kind: 'order', id: order.id } as const;
      const paid = await this.payments.paidOn(tx, account.id, subject);
      if (paid < order.totalCents)
        await this.ledger.append(
          tx,
          account.id,
          subject,
          completion(order.totalCents - paid),
          paid,
        );
      await markPaid(this.orders, this.certificates, tx, emit, account, order);
    });
    return this.queries.execute(new GetOrderQuery(account, id));
  }
}

/**
 * Records a payment or a refund against the order (its row locked; a transaction id sent again
 * answers the payment it recorded). Its status then follows the ledger by the rule appointments'
 * `paid` follows (isPaidInFull): `paid` once its payments cover its total, `unpaid` again when a
 * refund takes them below it. A free order keeps its status; a delivered one too.
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
export class RecordOrderPaymentHandler implements ICommandHandler<RecordOrderPaymentCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly orders: OrderRepository,
    private readonly ledger: PaymentLedger,
    private readonly payments: PaymentRepository,
    private readonly certificates: CertificateRepository,
  ) {}

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
          if (covered && order.status === 'unpaid')
            await markPaid(this.orders, this.certificates, tx, emit, account, order);
          if (!covered && order.status === 'paid')
            await this.orders.save(Object.assign(order, { status: 'unpaid' }), tx);
        }
        return payment;
      }),
    );
    return toPaymentView(payment, account.timezone);
  }
}

/**
 * Paid. The first time, the order completes: its product's certificate is issued for the buyer and
 * `order.completed` recorded. Paid again after a refund, it issues nothing more.
 */
async function markPaid(
  orders: OrderRepository,
  certificates: CertificateRepository,
  tx: EntityManager,
  emit: Emit,
  account: Account,
  order: Order,
): Promise<void> {
  order.status = 'paid';
  if (!order.completedAt) {
    const product = await certificates.productAsItIs(tx, order.productId);
    const certificate = await certificates.issue(
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
  await orders.save(order, tx);
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
