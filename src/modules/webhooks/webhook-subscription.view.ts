import {
  type WebhookEvent,
  type WebhookStatus,
  type WebhookSubscription,
  eventOfAction,
} from './webhook-subscription.entity';

/** A dynamic subscription, as `GET /webhooks` lists it. */
export interface WebhookSubscriptionView {
  id: number;
  event: WebhookEvent;
  target: string;
  status: WebhookStatus;
}

export function toWebhookSubscriptionView(row: WebhookSubscription): WebhookSubscriptionView {
  return { id: row.id, event: eventOfAction(row.action), target: row.target, status: row.status };
}
