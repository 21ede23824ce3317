import { DomainEventType } from '../common/outbox/domain-event-types';
import type { DomainEventConsumersFactory } from '../common/outbox/outbox-worker.module';
import { NotificationPlanner, NotificationsWorkerModule } from '../modules/notifications';
import { WebhookFanOut, WebhooksWorkerModule } from '../modules/webhooks';

/**
 * Which consumers each domain event reaches in the worker: the one place to read it. The worker's
 * DomainEventsProcessor hands an event to the consumers of its type, side by side; every type has
 * one at least (the compiler asks for each type, the processor refuses to start on an empty list).
 *
 * - WebhookFanOut: every type is a webhook action (a message per active subscription of it).
 * - NotificationPlanner: the appointment events (the client's messages and reminder); an order's
 *   completion sends the client nothing.
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
