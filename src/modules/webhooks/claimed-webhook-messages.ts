import type { EntityManager } from 'typeorm';
import type { WebhookVariables } from './webhook-delivery-rules';
import type { ClaimedMessage } from './webhook-messages';
import type { WebhookAction, WebhookStatus } from './webhook-subscription.entity';

interface MessageRow {
  id: number | string;
  account_id: number;
  subscription_id: number;
  outbox_id: number | string;
  action: WebhookAction;
  resource_id: number;
  variables: string | WebhookVariables;
  attempts: number;
  target: string;
  subscription_status: WebhookStatus;
  failing_since: Date | null;
  enterprise_id: number | null;
  api_key_encrypted: string;
}

/**
 * What sending the claimed messages needs: their rows with the subscription's and the account's,
 * by id. The lease keeps out a message claimed since by another job. The signing key is the
 * account's, or the enterprise's for an enterprise's subscription.
 */
export async function readClaimedMessages(
  db: Pick<EntityManager, 'query'>,
  ids: string[],
  lease: Date,
): Promise<Map<string, ClaimedMessage>> {
  const rows: MessageRow[] = await db.query(
    `SELECT m.id, m.account_id, m.subscription_id, m.outbox_id, m.action, m.resource_id,
            m.variables, m.attempts, s.target, s.status AS subscription_status, s.failing_since,
            s.enterprise_id, COALESCE(e.api_key_encrypted, a.api_key_encrypted) AS api_key_encrypted
       FROM webhook_messages m
       JOIN webhook_subscriptions s ON s.id = m.subscription_id
       JOIN accounts a ON a.id = m.account_id
       LEFT JOIN enterprises e ON e.id = s.enterprise_id
      WHERE m.id IN (?) AND m.leased_until = ?`,
    [ids, lease],
  );
  const claimed = new Map<string, ClaimedMessage>();
  for (const row of rows) {
    const id = String(row.id);
    claimed.set(id, {
      id,
      lease,
      accountId: row.account_id,
      subscriptionId: row.subscription_id,
      outboxId: String(row.outbox_id),
      action: row.action,
      resourceId: row.resource_id,
      // MariaDB's JSON is text to the driver; MySQL's is parsed already.
      variables:
        typeof row.variables === 'string'
          ? (JSON.parse(row.variables) as WebhookVariables)
          : row.variables,
      attempts: row.attempts,
      target: row.target,
      subscriptionStatus: row.subscription_status,
      failingSince: row.failing_since,
      enterpriseId: row.enterprise_id,
      apiKeyEncrypted: row.api_key_encrypted,
    });
  }
  return claimed;
}
