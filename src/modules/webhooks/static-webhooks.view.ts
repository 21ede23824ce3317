import {
  STATIC_WEBHOOK_KEYS,
  type StaticWebhookKey,
  type WebhookStatus,
  type WebhookSubscription,
  actionOfStaticKey,
} from './webhook-subscription.entity';
import { oneOf, orNull, text, viewSchema, type ViewType } from '../../common/openapi/view-schema';

/** The static webhook of one action; an unset one has no target and is `active`. */
export type StaticWebhookView = ViewType<typeof STATIC_WEBHOOK_VIEW>;

/** `GET /integrations/webhooks`: every key, set or not. */
export type StaticWebhooksView = Record<StaticWebhookKey, StaticWebhookView>;

export function toStaticWebhooksView(rows: readonly WebhookSubscription[]): StaticWebhooksView {
  const byAction = new Map(rows.map((row) => [row.action, row]));
  const entries = STATIC_WEBHOOK_KEYS.map((key): [StaticWebhookKey, StaticWebhookView] => {
    const row = byAction.get(actionOfStaticKey(key));
    return [
      key,
      row ? { target: row.target, status: row.status } : { target: null, status: 'active' },
    ];
  });
  return Object.fromEntries(entries) as StaticWebhooksView;
}

export const STATIC_WEBHOOK_VIEW = viewSchema('StaticWebhookView', {
  target: orNull(text('https://example.com/hooks', 'null: not set.')),
  status: oneOf<WebhookStatus>(['active', 'disabled']),
});

export const STATIC_WEBHOOKS_VIEW = viewSchema(
  'StaticWebhooksView',
  Object.fromEntries(STATIC_WEBHOOK_KEYS.map((key) => [key, STATIC_WEBHOOK_VIEW.ref])) as Record<
    StaticWebhookKey,
    typeof STATIC_WEBHOOK_VIEW.ref
  >,
);
