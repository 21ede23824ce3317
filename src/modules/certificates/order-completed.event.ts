import { DomainEvent } from '../../common/outbox/domain-event';
import { DomainEventType } from '../../common/outbox/domain-event-types';

export type OrderCompletedPayload = {
  orderId: number;
  productId: number;
  /** The certificates the order issued. */
  certificateIds: number[];
};

/** An order was paid: webhooks deliver it with `action=order.completed`. */
export class OrderCompletedEvent extends DomainEvent<OrderCompletedPayload> {
  readonly type = DomainEventType.OrderCompleted;
}
