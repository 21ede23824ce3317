import { createHmac } from 'node:crypto';

/**
 * The body of a webhook notification: `application/x-www-form-urlencoded`, variables in the order
 * given (`action`, `id`, `calendarID`, `appointmentTypeID` for appointments).
 *
 * The order is the object's property order, so keys that look like array indices ("1", "42") would
 * come first; the spec's variable names never do.
 */
export function webhookBody(variables: Record<string, string | number>): string {
  return new URLSearchParams(
    Object.entries(variables).map(([name, value]): [string, string] => [name, String(value)]),
  ).toString();
}

export interface SignatureInput {
  /** The signing key: the API key of the account (dynamic webhooks) or of the main admin (static). */
  apiKey: string;
  /**
   * The message id, stable across retries of one delivery so a receiver can deduplicate, e.g.
   * `msg_<outboxId>_<subscriptionId>`.
   */
  webhookId: string;
  /** When this attempt is sent; receivers may reject timestamps far from their clock. */
  timestamp: Date;
  /** The exact body sent (see webhookBody). */
  body: string;
}

/** A type, not an interface, so that it can be passed where `Record<string, string>` is expected. */
export type SignatureHeaders = {
  'x-service-signature': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/** Header values must not smuggle a line break or a space (a space separates signatures). */
const HEADER_TOKEN = /^[\x21-\x7e]+$/;

/**
 * The headers that sign one delivery attempt, in two schemes:
 *
 * - `x-service-signature`: the spec's own, base64(HMAC-SHA256(apiKey, body)). It covers neither a
 *   time nor an id, so a captured request can be replayed; it stays for receivers built on the spec.
 * - `webhook-id`, `webhook-timestamp`, `webhook-signature`: Standard Webhooks
 *   (https://www.standardwebhooks.com), `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)),
 *   which binds the id and the time so receivers can refuse replays and duplicates.
 *
 * The key of both is the UTF-8 bytes of the API key. Standard Webhooks usually hands receivers a
 * secret `whsec_<base64 of the key bytes>`; ours is not a generated random key but the API key the
 * receiver already has, so no second secret is issued. A receiver using a Standard Webhooks library
 * gives it `whsec_` + base64(UTF-8 bytes of its API key) (or the raw bytes where the library takes
 * them), which the unit test checks against the `standardwebhooks` package.
 */
export function signatureHeaders({
  apiKey,
  webhookId,
  timestamp,
  body,
}: SignatureInput): SignatureHeaders {
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
