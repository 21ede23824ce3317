import { DomainEvent } from '../../common/outbox/domain-event';
import { DomainEventType } from '../../common/outbox/domain-event-types';

/** An order was paid: webhooks deliver it with `action=order.completed`. */
export class OrderCompletedEvent extends DomainEvent<'order.completed'> {
  readonly type = DomainEventType.OrderCompleted;
}
