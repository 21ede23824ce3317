import { DomainEventType } from '../common/outbox/domain-event-types';
import type { DomainEventConsumersFactory } from '../common/outbox/outbox-worker.module';
import { NotificationPlanner, NotificationsWorkerModule } from '../modules/notifications';
import { WebhookFanOut, WebhooksWorkerModule } from '../modules/webhooks';

/**
 * Which consumers each domain event reaches in the worker (DomainEventsProcessor), side by side.
 * Every type has one at least: the compiler asks for each, the processor refuses an empty list.
 * Every type is a webhook action; the appointment events also notify the client, an order not.
 */
export const domainEventConsumers: DomainEventConsumersFactory = {
  imports: [WebhooksWorkerModule, NotificationsWorkerModule],
  inject: [WebhookFanOut, NotificationPlanner],
  useFactory: (webhooks: WebhookFanOut, notifications: NotificationPlanner) => ({
    [DomainEventType.AppointmentScheduled]: [webhooks, notifications],
    [DomainEventType.AppointmentRescheduled]: [webhooks, notifications],
    [DomainEventType.AppointmentCanceled]: [webhooks, notifications],
    [DomainEventType.AppointmentChanged]: [webhooks, notifications],
    [DomainEventType.OrderCompleted]: [webhooks],
  }),
};
