/**
 * What one attempt to send came to. Senders never throw: `retry` is a failure that may pass (the
 * server unreachable, busy, a 4xx SMTP reply, an HTTP 5xx or 429), `failed` one that will not (a
 * permanent SMTP rejection, an HTTP 4xx, a message we cannot build).
 */
export type SendOutcome =
  { kind: 'sent'; providerMessageId: string | null } | { kind: 'retry' | 'failed'; error: string };

/** `<code>: <message>` of what a send threw, for the message's `error`. */
export function sendErrorOf(err: unknown): string {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(err);
  return [typeof code === 'string' ? code : undefined, text].filter(Boolean).join(': ');
}
