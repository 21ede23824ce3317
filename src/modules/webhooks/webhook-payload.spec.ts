import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { signatureHeaders, webhookBody } from './webhook-payload';

/** HMAC-SHA256 in base64, computed here rather than through the code under test. */
const hmac = (key: string, content: string) =>
  createHmac('sha256', Buffer.from(key, 'utf8')).update(content, 'utf8').digest('base64');

/** The secret a Standard Webhooks receiver is given for an API key: whsec_ + base64(key bytes). */
const whsec = (apiKey: string) => `whsec_${Buffer.from(apiKey, 'utf8').toString('base64')}`;

describe('webhookBody', () => {
  it('encodes the variables as a form, in the order given', () => {
    expect(webhookBody({ action: 'scheduled', id: 42, calendarID: 7, appointmentTypeID: 3 })).toBe(
      'action=scheduled&id=42&calendarID=7&appointmentTypeID=3',
    );
    expect(webhookBody({ id: 9, action: 'order.completed' })).toBe('id=9&action=order.completed');
  });

  it('escapes what a form must escape', () => {
    expect(webhookBody({ action: 'a b&c=d+é/%', id: 0 })).toBe(
      'action=a+b%26c%3Dd%2B%C3%A9%2F%25&id=0',
    );
    expect(new URLSearchParams(webhookBody({ note: 'a b&c=d+é/%\n' })).get('note')).toBe(
      'a b&c=d+é/%\n',
    );
  });

  it('is empty for no variables', () => {
    expect(webhookBody({})).toBe('');
  });
});

describe('signatureHeaders', () => {
  const body = 'action=scheduled&id=42&calendarID=7&appointmentTypeID=3';

  it('matches vectors computed with openssl (timestamp truncated to whole seconds)', () => {
    // printf '%s' "$body" | openssl dgst -sha256 -hmac api-key-123 -binary | base64
    expect(
      signatureHeaders({
        apiKey: 'api-key-123',
        webhookId: 'msg_17_5',
        timestamp: new Date('2026-01-01T00:00:00.999Z'),
        body,
      }),
    ).toEqual({
      'x-service-signature': 'kjoDKAbZ1No6km6kcUFgbJ7IJ5h15T9rlUTkFSyCHCE=',
      'webhook-id': 'msg_17_5',
      'webhook-timestamp': '1767225600',
      'webhook-signature': 'v1,fibFyJQEQ/r9HgJDz+J36Yt64HTW3f8Vs8vk4o29iDQ=',
    });
  });

  it('matches the classic HMAC-SHA256 vector and keys with the UTF-8 bytes of the API key', () => {
    const at = new Date(0);
    expect(
      signatureHeaders({
        apiKey: 'key',
        webhookId: 'm',
        timestamp: at,
        body: 'The quick brown fox jumps over the lazy dog',
      })['x-service-signature'],
    ).toBe('97yD9DBThCSxMpjmqm+xQ+9NWaFJRhdZl0edvC0aPNg='); // f7bc83f4…2d1a3cd8
    // openssl dgst -sha256 -mac HMAC -macopt hexkey:636cc3a92dc3bc (the UTF-8 of "clé-ü")
    expect(
      signatureHeaders({
        apiKey: 'clé-ü',
        webhookId: 'm',
        timestamp: at,
        body: 'action=canceled&id=1',
      })['x-service-signature'],
    ).toBe('wwnOAoXCIUTxhIWMp9LiAbz761/Dbjr+E6l95gRFd/I=');
  });

  it('equals an independent computation for any key, id, time and body', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, unit: 'grapheme' }),
        fc.stringMatching(/^[\x21-\x7e]{1,40}$/),
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        fc.string({ unit: 'grapheme' }),
        (apiKey, webhookId, ms, body) => {
          const seconds = Math.floor(ms / 1000);
          expect(signatureHeaders({ apiKey, webhookId, timestamp: new Date(ms), body })).toEqual({
            'x-service-signature': hmac(apiKey, body),
            'webhook-id': webhookId,
            'webhook-timestamp': String(seconds),
            'webhook-signature': `v1,${hmac(apiKey, `${webhookId}.${seconds}.${body}`)}`,
          });
        },
      ),
    );
  });

  it('refuses an empty key, an id that is not a header token, and an invalid date', () => {
    const valid = { apiKey: 'k', webhookId: 'msg_1_1', timestamp: new Date(), body };
    expect(() => signatureHeaders({ ...valid, apiKey: '' })).toThrow(
      'A webhook signing key must not be empty',
    );
    expect(() => signatureHeaders({ ...valid, webhookId: 'msg 1' })).toThrow('Invalid webhook id');
    expect(() => signatureHeaders({ ...valid, webhookId: 'msg\r\nx: y' })).toThrow(
      'Invalid webhook id',
    );
    expect(() => signatureHeaders({ ...valid, webhookId: '' })).toThrow('Invalid webhook id');
    expect(() => signatureHeaders({ ...valid, timestamp: new Date(NaN) })).toThrow(
      'Invalid webhook timestamp',
    );
  });
});

describe('signatureHeaders against the standardwebhooks package', () => {
  const apiKey = 'sk_live_clé-0123456789abcdef';
  const body = webhookBody({
    action: 'rescheduled',
    id: 1001,
    calendarID: 2,
    appointmentTypeID: 3,
  });

  it('verifies with a whsec_ secret holding the UTF-8 bytes of the API key', () => {
    const headers = signatureHeaders({ apiKey, webhookId: 'msg_9_4', timestamp: new Date(), body });
    expect(new Webhook(whsec(apiKey)).verify(body, headers, { jsonParse: false })).toBeUndefined();
    // The library also accepts the raw key bytes.
    const raw = new Webhook(Buffer.from(apiKey, 'utf8'), { format: 'raw' });
    expect(raw.verify(Buffer.from(body), headers, { jsonParse: false })).toBeUndefined();
  });

  it('signs exactly as the library does for any key, id, time and body', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, unit: 'grapheme' }),
        fc.stringMatching(/^[\x21-\x7e]{1,40}$/),
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        fc.string({ unit: 'grapheme' }),
        (key, webhookId, ms, payload) => {
          const timestamp = new Date(ms);
          expect(
            signatureHeaders({ apiKey: key, webhookId, timestamp, body: payload })[
              'webhook-signature'
            ],
          ).toBe(new Webhook(whsec(key)).sign(webhookId, timestamp, payload));
        },
      ),
    );
  });

  it('is refused by the library for another body, id, key or an old timestamp', () => {
    const now = new Date();
    const headers = signatureHeaders({ apiKey, webhookId: 'msg_9_4', timestamp: now, body });
    const receiver = new Webhook(whsec(apiKey));
    const verify = (payload: string, h: Record<string, string>) => () =>
      receiver.verify(payload, h, { jsonParse: false });

    expect(verify(`${body}&x=1`, headers)).toThrow(WebhookVerificationError);
    expect(verify(body, { ...headers, 'webhook-id': 'msg_9_5' })).toThrow(
      'No matching signature found',
    );
    expect(() =>
      new Webhook(whsec(`${apiKey}x`)).verify(body, headers, { jsonParse: false }),
    ).toThrow('No matching signature found');
    const old = signatureHeaders({
      apiKey,
      webhookId: 'msg_9_4',
      timestamp: new Date(now.getTime() - 10 * 60_000),
      body,
    });
    expect(verify(body, old)).toThrow('Message timestamp too old');
  });
});
