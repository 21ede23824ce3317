import {
  type WebhookEvent,
  type WebhookStatus,
  type WebhookSubscription,
  eventOfAction,
} from './webhook-subscription.entity';
import { id, oneOf, text, viewSchema } from '../../common/openapi/view-schema';
import { WEBHOOK_EVENTS } from './webhook-subscription.entity';

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

export const WEBHOOK_SUBSCRIPTION_VIEW = viewSchema<WebhookSubscriptionView>(
  'WebhookSubscriptionView',
  {
    id: id(5),
    event: oneOf(WEBHOOK_EVENTS),
    target: text('https://example.com/hooks'),
    status: oneOf(['active', 'disabled']),
  },
);
