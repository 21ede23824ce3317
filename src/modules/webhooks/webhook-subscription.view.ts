import { id, oneOf, text, viewSchema, type ViewType } from '../../common/openapi/view-schema';
import {
  WEBHOOK_EVENTS,
  type WebhookStatus,
  type WebhookSubscription,
  eventOfAction,
} from './webhook-subscription.entity';

/** A dynamic subscription, as `GET /webhooks` lists it. */
export type WebhookSubscriptionView = ViewType<typeof WEBHOOK_SUBSCRIPTION_VIEW>;

export function toWebhookSubscriptionView(row: WebhookSubscription): WebhookSubscriptionView {
  return { id: row.id, event: eventOfAction(row.action), target: row.target, status: row.status };
}

export const WEBHOOK_SUBSCRIPTION_VIEW = viewSchema('WebhookSubscriptionView', {
  id: id(5),
  event: oneOf(WEBHOOK_EVENTS),
  target: text('https://example.com/hooks'),
  status: oneOf<WebhookStatus>(['active', 'disabled']),
});
