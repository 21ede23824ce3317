import {
  STATIC_WEBHOOK_KEYS,
  type StaticWebhookKey,
  type WebhookStatus,
  type WebhookSubscription,
  actionOfStaticKey,
} from './webhook-subscription.entity';

/** The static webhook of one action; an unset one has no target and is `active`. */
export interface StaticWebhookView {
  target: string | null;
  status: WebhookStatus;
}

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
