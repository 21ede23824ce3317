import { createHmac } from 'node:crypto';

/** The form-encoded body, in the object's order (keys like "1" would come first; ours never do). */
export function webhookBody(variables: Record<string, string | number>): string {
  return new URLSearchParams(
    Object.entries(variables).map(([name, value]): [string, string] => [name, String(value)]),
  ).toString();
}

/** Header values must not smuggle a line break or a space (a space separates signatures). */
const HEADER_TOKEN = /^[\x21-\x7e]+$/;

/**
 * The headers that sign one delivery attempt, in two schemes:
 * - `x-service-signature`, the spec's: base64(HMAC-SHA256(apiKey, body)). It binds neither a time
 *   nor an id, so a captured request can be replayed; it stays for receivers built on the spec.
 * - Standard Webhooks' `webhook-id`, `webhook-timestamp`, `webhook-signature`: `v1,` +
 *   base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)), so receivers can refuse replays.
 * Both keys are the API key's UTF-8 bytes: the receiver has it already, so no second secret is
 * issued. Standard Webhooks libraries take it as `whsec_` + base64(those bytes) (unit-tested).
 */
export function signatureHeaders({
  apiKey,
  webhookId,
  timestamp,
  body,
}: {
  /** The signing key: the account's API key (an enterprise's subscription: the enterprise's). */
  apiKey: string;
  /** The message id, stable across retries so that a receiver can deduplicate (webhookIdOf). */
  webhookId: string;
  /** When this attempt is sent (receivers may reject one far from their clock). */
  timestamp: Date;
  /** The exact body sent (see webhookBody). */
  body: string;
}): Record<string, string> {
  if (apiKey === '') throw new Error('A webhook signing key must not be empty');
  if (!HEADER_TOKEN.test(webhookId)) {
    throw new Error(`Invalid webhook id ${JSON.stringify(webhookId)}`);
  }
  const seconds = Math.floor(timestamp.getTime() / 1000);
  if (!Number.isFinite(seconds)) throw new Error('Invalid webhook timestamp');

  const sign = (content: string) =>
    createHmac('sha256', Buffer.from(apiKey, 'utf8')).update(content, 'utf8').digest('base64');
  return {
    'x-service-signature': sign(body),
    'webhook-id': webhookId,
    'webhook-timestamp': String(seconds),
    'webhook-signature': `v1,${sign(`${webhookId}.${seconds}.${body}`)}`,
  };
}
