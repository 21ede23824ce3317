import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { Webhook } from 'standardwebhooks';
import { eventually } from '../../../test/support/eventually';
import { testConfig } from '../../../test/support/test-environment';
import { signatureHeaders, webhookBody } from './webhook-payload';
import {
  type LookupAll,
  type SendOutcome,
  type SendTimeout,
  type SenderPolicy,
  WEBHOOK_USER_AGENT,
  WebhookSender,
  type WebhookSenderOptions,
} from './webhook-sender';

// Every server here listens on 127.0.0.1 (or 127.0.0.2); host names other than localhost are
// resolved by the test's own lookup, so no packet leaves the machine.

/** Self-signed, for receiver.test only, valid 2000–2100 (EC P-256; test use only). */
const TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgxyJA0TW+52FxaApV
c5UYPh16JY6P22V7rK97D3kuqSOhRANCAAR5x7bAqDmkK8LRy7sxfkxXoIcKmhpJ
xM9t9ZUsqyON5f7cl84JvU+gFMs3jNN8FL1DwQRO0iTk/Rs3rSFIO89u
-----END PRIVATE KEY-----
`;
const TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBkDCCATWgAwIBAgIBATAKBggqhkjOPQQDAjAYMRYwFAYDVQQDDA1yZWNlaXZl
ci50ZXN0MCAXDTAwMDEwMTAwMDAwMFoYDzIxMDAwMTAxMDAwMDAwWjAYMRYwFAYD
VQQDDA1yZWNlaXZlci50ZXN0MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEece2
wKg5pCvC0cu7MX5MV6CHCpoaScTPbfWVLKsjjeX+3JfOCb1PoBTLN4zTfBS9Q8EE
TtIk5P0bN60hSDvPbqNuMGwwGAYDVR0RBBEwD4INcmVjZWl2ZXIudGVzdDAMBgNV
HRMBAf8EAjAAMA4GA1UdDwEB/wQEAwIHgDATBgNVHSUEDDAKBggrBgEFBQcDATAd
BgNVHQ4EFgQU+4M4ve68gwhT2ZdOEIJlkF5OYa0wCgYIKoZIzj0EAwIDSQAwRgIh
APJuNxFUQCMQVb1difSqytlB20Wpa1S5zEqzocwMKESIAiEA8pp5Q9llN6PTUV1M
Z3fTh1YId1re2uQiA0uVGvyaJCU=
-----END CERTIFICATE-----
`;

const OPEN: SenderPolicy = { extraPorts: 'any', allowPrivateTargets: true };
const STRICT: SenderPolicy = { extraPorts: 'any', allowPrivateTargets: false };
const API_KEY = 'api-key-0123456789';
const BODY = webhookBody({ action: 'scheduled', id: 42, calendarID: 7, appointmentTypeID: 3 });

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  servername: string | false | null | undefined;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

interface Receiver {
  port: number;
  url: string;
  received: Received[];
  /** Connections accepted so far. */
  connections: number;
  openSockets(): number;
  close(): Promise<void>;
}

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

function sender(policy: SenderPolicy = OPEN, options: WebhookSenderOptions = {}): WebhookSender {
  const created = new WebhookSender(policy, options);
  cleanups.push(() => created.close());
  return created;
}

/** An HTTP(S) server that records each request, then lets `handler` answer (200 by default). */
async function receiver(
  handler: Handler = (_req, res) => res.end(),
  { host = '127.0.0.1', port: wantedPort = 0, tls = false } = {},
): Promise<Receiver> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        servername: (req.socket as Partial<TLSSocket>).servername,
      });
      Promise.resolve(handler(req, res)).catch(() => res.destroy());
    });
  };
  const server: Server = tls
    ? createHttpsServer({ key: TLS_KEY, cert: TLS_CERT }, onRequest)
    : createHttpServer(onRequest);
  const state = { connections: 0 };
  server.on('connection', (socket: Socket) => {
    state.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(wantedPort, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const close = async () => {
    server.closeAllConnections();
    for (const socket of sockets) socket.destroy();
    if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  cleanups.push(close);
  return {
    port,
    url: `${tls ? 'https' : 'http'}://${host}:${port}`,
    received,
    get connections() {
      return state.connections;
    },
    openSockets: () => sockets.size,
    close,
  };
}

/** A bare TCP server on 127.0.0.1, its connections handed to `onConnection`; answers its port. */
async function tcpServer(onConnection: (socket: Socket) => void): Promise<number> {
  const sockets: Socket[] = [];
  const server = createNetServer((socket) => {
    sockets.push(socket);
    onConnection(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => {
    sockets.forEach((socket) => socket.destroy());
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as AddressInfo).port;
}

/** A port on 127.0.0.1 where nothing listens. */
async function closedPort(): Promise<number> {
  const server = createNetServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A lookup answering from a table, recording its calls. */
function fixedLookup(table: Record<string, string[]>): LookupAll & { calls: string[] } {
  const calls: string[] = [];
  const lookup = (hostname: string) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses) {
      return Promise.reject(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
          code: 'ENOTFOUND',
        }),
      );
    }
    return Promise.resolve(addresses.map((address) => ({ address, family: 4 })));
  };
  return Object.assign(lookup, { calls });
}

function signed(webhookId = 'msg_1_1') {
  return signatureHeaders({ apiKey: API_KEY, webhookId, timestamp: new Date(), body: BODY });
}

/**
 * A retry because the attempt hit `limit`, set to 300 ms: not before, and not much after (undici's
 * timers tick every 500 ms or so, so up to about that late), far from the other limits.
 */
function expectTimedOut(outcome: SendOutcome, limit: SendTimeout, error: string): void {
  expect(outcome).toEqual({
    kind: 'retry',
    statusCode: null,
    error,
    durationMs: expect.any(Number),
    timeout: limit,
  });
  expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
  expect(outcome.durationMs).toBeLessThan(2000);
}

describe('WebhookSender: outcomes from real HTTP receivers on 127.0.0.1', () => {
  it('delivers on 2xx; the receiver gets the method, headers and body exactly', async () => {
    const server = await receiver((req, res) => {
      res.statusCode = req.url?.startsWith('/204') ? 204 : 200;
      res.end('ok');
    });
    const headers = {
      ...signed('msg_17_5'),
      'Content-Type': 'text/plain', // ours wins
      'User-Agent': 'impostor',
      Host: 'elsewhere.test',
    };

    await expect(
      sender().send(`${server.url}/hooks?account=3#fragment`, BODY, headers),
    ).resolves.toEqual({
      kind: 'delivered',
      statusCode: 200,
      error: null,
      durationMs: expect.any(Number),
    });
    await expect(sender().send(`${server.url}/204`, BODY, signed())).resolves.toMatchObject({
      kind: 'delivered',
      statusCode: 204,
      error: null,
    });

    const [first] = server.received;
    expect(first.method).toBe('POST');
    expect(first.url).toBe('/hooks?account=3');
    expect(first.body).toBe('action=scheduled&id=42&calendarID=7&appointmentTypeID=3');
    expect(first.headers).toMatchObject({
      host: `127.0.0.1:${server.port}`,
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': String(Buffer.byteLength(BODY)),
      'user-agent': WEBHOOK_USER_AGENT,
      'x-service-signature': signed()['x-service-signature'],
      'webhook-id': 'msg_17_5',
    });
    // What arrived verifies with the spec's own check and with a Standard Webhooks library.
    expect(first.headers['x-service-signature']).toBe(
      createHmac('sha256', API_KEY).update(first.body).digest('base64'),
    );
    const receivedHeaders = first.headers as Record<string, string>;
    expect(() =>
      new Webhook(`whsec_${Buffer.from(API_KEY).toString('base64')}`).verify(
        first.body,
        receivedHeaders,
        { jsonParse: false },
      ),
    ).not.toThrow();
  });

  it('retries after HTTP 500 only; every other status fails', async () => {
    const server = await receiver((req, res) => {
      res.statusCode = Number(req.url?.slice(1));
      res.end('{"error":"nope"}');
    });
    const webhooks = sender();
    const outcomes = await Promise.all(
      [500, 400, 401, 404, 410, 429, 501, 502, 503, 504].map(async (status) => ({
        status,
        ...(await webhooks.send(`${server.url}/${status}`, BODY, signed())),
      })),
    );
    expect(
      outcomes.map(({ status, kind, statusCode, error }) => [status, kind, statusCode, error]),
    ).toEqual([
      [500, 'retry', 500, 'HTTP 500'],
      [400, 'failed', 400, 'HTTP 400'],
      [401, 'failed', 401, 'HTTP 401'],
      [404, 'failed', 404, 'HTTP 404'],
      [410, 'failed', 410, 'HTTP 410'],
      [429, 'failed', 429, 'HTTP 429'],
      [501, 'failed', 501, 'HTTP 501'],
      [502, 'failed', 502, 'HTTP 502'],
      [503, 'failed', 503, 'HTTP 503'],
      [504, 'failed', 504, 'HTTP 504'],
    ]);
  });

  it('does not follow redirects: a 3xx fails and its Location is never contacted', async () => {
    const elsewhere = await receiver();
    const server = await receiver((req, res) => {
      res.writeHead(Number(req.url?.slice(1)), { location: `${elsewhere.url}/stolen` });
      res.end();
    });
    const webhooks = sender();
    for (const status of [301, 302, 303, 307, 308]) {
      await expect(webhooks.send(`${server.url}/${status}`, BODY, signed())).resolves.toEqual({
        kind: 'failed',
        statusCode: status,
        error: `HTTP ${status} (redirects are not followed)`,
        durationMs: expect.any(Number),
      });
    }
    expect(server.received).toHaveLength(5);
    expect(elsewhere.connections).toBe(0);
  });

  it('retries when the connection is refused or reset', async () => {
    const port = await closedPort();
    await expect(sender().send(`http://127.0.0.1:${port}/`, BODY, signed())).resolves.toEqual({
      kind: 'retry',
      statusCode: null,
      error: 'ECONNREFUSED',
      durationMs: expect.any(Number),
    });

    const resetting = await receiver((req) => {
      req.socket.destroy();
    });
    const reset = await sender().send(resetting.url, BODY, signed());
    expect(reset).toMatchObject({ kind: 'retry', statusCode: null });
    expect(reset.error).toMatch(/^(socket hang up \(other side closed\)|ECONNRESET)$/);
  });

  it('retries after the timeout when the receiver never answers', async () => {
    const silent = await receiver(() => {});
    const outcome = await sender(OPEN, { timeoutMs: 300 }).send(silent.url, BODY, signed());
    expectTimedOut(outcome, 'total', 'timeout after 300 ms');
    expect(silent.received).toHaveLength(1);
  });

  it("gives up on a receiver that takes the request and says nothing at the headers timeout, before the whole attempt's", async () => {
    const silent = await receiver(() => {});
    const outcome = await sender(OPEN, { timeoutMs: 5000, headersTimeoutMs: 300 }).send(
      silent.url,
      BODY,
      signed(),
    );
    expectTimedOut(outcome, 'headers', 'headers timeout after 300 ms');
    expect(silent.received).toHaveLength(1);
  });

  it('gives up connecting at the connect timeout: a TLS handshake that never comes', async () => {
    const port = await tcpServer(() => {}); // takes the connection, never speaks TLS
    const outcome = await sender(OPEN, { timeoutMs: 5000, connectTimeoutMs: 300 }).send(
      `https://127.0.0.1:${port}/`,
      BODY,
      signed(),
    );
    expectTimedOut(outcome, 'connect', 'connect timeout after 300 ms');
  });

  it('gives up resolving a name at the connect timeout', async () => {
    const hanging: LookupAll = () => new Promise(() => {});
    const outcome = await sender(OPEN, {
      timeoutMs: 5000,
      connectTimeoutMs: 300,
      lookup: hanging,
    }).send('http://receiver.test/', BODY, signed());
    expectTimedOut(outcome, 'connect', 'connect timeout after 300 ms');
  });

  it('takes its limits from the configuration: connect 3 s, headers 5 s, 10 s in all by default', async () => {
    const silent = await receiver(() => {});
    const configured = WebhookSender.fromConfig(
      testConfig().with({
        webhooks: {
          ...testConfig().webhooks,
          timeouts: { connectMs: 200, headersMs: 400, totalMs: 3000 },
        },
      }),
    );
    cleanups.push(() => configured.close());
    await expect(configured.send(silent.url, BODY, signed())).resolves.toMatchObject({
      kind: 'retry',
      error: 'headers timeout after 400 ms',
      timeout: 'headers',
    });
    expect(testConfig().webhooks.timeouts).toEqual({
      connectMs: 3000,
      headersMs: 5000,
      totalMs: 10_000,
    });
  });

  it('counts a DNS lookup that never answers against the same timeout', async () => {
    const hanging: LookupAll = () => new Promise(() => {});
    const outcome = await sender(OPEN, { timeoutMs: 300, lookup: hanging }).send(
      'http://receiver.test/',
      BODY,
      signed(),
    );
    expect(outcome).toMatchObject({ kind: 'retry', error: 'timeout after 300 ms' });
    expect(outcome.durationMs).toBeLessThan(2000);
  });

  it('retries when the name does not resolve (ENOTFOUND, EAI_AGAIN)', async () => {
    const failing =
      (code: string): LookupAll =>
      () =>
        Promise.reject(Object.assign(new Error(`getaddrinfo ${code} receiver.test`), { code }));
    for (const code of ['ENOTFOUND', 'EAI_AGAIN']) {
      await expect(
        sender(OPEN, { lookup: failing(code) }).send('http://receiver.test/', BODY, signed()),
      ).resolves.toEqual({
        kind: 'retry',
        statusCode: null,
        error: code,
        durationMs: expect.any(Number),
      });
    }
    await expect(
      sender(OPEN, { lookup: () => Promise.resolve([]) }).send(
        'http://receiver.test/',
        BODY,
        signed(),
      ),
    ).resolves.toMatchObject({ kind: 'retry', error: 'ENOTFOUND' });
  });

  it.each([
    ['chunked', false],
    ['with Content-Length', true],
  ])(
    'drops a 10 MB response (%s) after maxResponseBytes instead of reading it',
    async (_name, declareLength) => {
      const tenMegabytes = 10 * 1024 * 1024;
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const stream = { written: 0, finished: false };
      let closed!: Promise<unknown>;
      const server = await receiver(async (_req, res) => {
        closed = once(res, 'close');
        res.on('error', () => {});
        res.writeHead(200, declareLength ? { 'content-length': tenMegabytes } : {});
        while (stream.written < tenMegabytes && !res.destroyed) {
          stream.written += chunk.length;
          if (!res.write(chunk)) {
            await drainedOrClosed(res);
          }
        }
        if (!res.destroyed) res.end(() => (stream.finished = true));
      });

      const outcome = await sender().send(server.url, BODY, signed());

      expect(outcome).toMatchObject({ kind: 'delivered', statusCode: 200, error: null });
      expect(outcome.durationMs).toBeLessThan(5000); // far below the 10 s timeout: not read to the end
      await closed; // the sender closed the connection under the response
      expect(stream.finished).toBe(false);
      expect(stream.written).toBeLessThan(tenMegabytes);
    },
  );

  it('reads a small response to its end and reuses the connection', async () => {
    const server = await receiver((_req, res) => res.end('thanks'));
    const webhooks = sender();
    for (let i = 0; i < 20; i++) {
      await expect(webhooks.send(server.url, BODY, signed())).resolves.toMatchObject({
        kind: 'delivered',
      });
    }
    // undici may open a second connection while the first is still being released; never more.
    expect(server.connections).toBeLessThanOrEqual(2);
  });

  it('is delivered on a 2xx even when the response body never ends', async () => {
    const server = await receiver((_req, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    const outcome = await sender(OPEN, { timeoutMs: 300 }).send(server.url, BODY, signed());
    expect(outcome).toMatchObject({ kind: 'delivered', statusCode: 200, error: null });
    expect(server.received).toHaveLength(1);
  });

  it('fails when the answer is not HTTP', async () => {
    const port = await tcpServer((socket) => socket.end('HELLO THERE\r\n\r\n'));

    const outcome = await sender().send(`http://127.0.0.1:${port}/`, BODY, signed());
    expect(outcome).toMatchObject({ kind: 'failed', statusCode: null });
    expect(outcome.error).toBe(
      'invalid HTTP response: Response does not match the HTTP/1.1 protocol (Expected HTTP/, RTSP/ or ICE/)',
    );
  });

  it('fails, sending nothing, for a header value it cannot send', async () => {
    const server = await receiver();
    const outcome = await sender().send(server.url, BODY, { 'x-bad': 'a\r\nb' });
    expect(outcome).toMatchObject({ kind: 'failed', statusCode: null });
    expect(outcome.error).toMatch(/^UND_ERR_INVALID_ARG: /);
    expect(server.connections).toBe(0);
  });

  it('fails for a target that is not an http(s) URL', async () => {
    const webhooks = sender();
    const failed = async (target: string) => (await webhooks.send(target, BODY, signed())).error;
    await expect(failed('not a url')).resolves.toBe('invalid URL');
    await expect(failed('ftp://127.0.0.1/')).resolves.toBe('scheme ftp is not allowed');
    await expect(failed('http://user:secret@127.0.0.1/')).resolves.toBe(
      'credentials in the URL are not supported',
    );
  });

  it('comes back as retry once closed, including a send in flight', async () => {
    const silent = await receiver(() => {});
    const webhooks = new WebhookSender(OPEN);
    const inFlight = webhooks.send(silent.url, BODY, signed());
    await eventually(() => (silent.received.length > 0 ? true : undefined));
    await webhooks.close();
    await expect(inFlight).resolves.toMatchObject({ kind: 'retry', statusCode: null });
    await expect(webhooks.send(silent.url, BODY, signed())).resolves.toMatchObject({
      kind: 'retry',
      error: 'sender closed',
    });
    await webhooks.close(); // twice is fine
  });
});

describe('WebhookSender: target policy at send time', () => {
  it('refuses a loopback address when private targets are not allowed, without connecting', async () => {
    const server = await receiver();
    await expect(sender(STRICT).send(server.url, BODY, signed())).resolves.toEqual({
      kind: 'failed',
      statusCode: null,
      error: 'address 127.0.0.1 is not public',
      durationMs: expect.any(Number),
    });
    await expect(
      sender(STRICT).send(`http://[::ffff:127.0.0.1]:${server.port}/`, BODY, signed()),
    ).resolves.toMatchObject({ kind: 'failed', error: 'address ::ffff:7f00:1 is not public' });
    expect(server.connections).toBe(0);
  });

  it('refuses a port that is neither 80, 443 nor an allowed extra port', async () => {
    const server = await receiver();
    await expect(
      sender({ extraPorts: [8443], allowPrivateTargets: true }).send(server.url, BODY, signed()),
    ).resolves.toEqual({
      kind: 'failed',
      statusCode: null,
      error: `port ${server.port} is not allowed`,
      durationMs: expect.any(Number),
    });
    expect(server.connections).toBe(0);
    await expect(
      sender({ extraPorts: [server.port], allowPrivateTargets: true }).send(
        server.url,
        BODY,
        signed(),
      ),
    ).resolves.toMatchObject({ kind: 'delivered' });
  });

  it('refuses localhost when private targets are not allowed, and delivers when they are', async () => {
    const server = await receiver();
    const refused = await sender(STRICT).send(`http://localhost:${server.port}/`, BODY, signed());
    expect(refused).toMatchObject({ kind: 'failed', statusCode: null });
    expect(refused.error).toMatch(/^address (127\.0\.0\.1|::1) is not public$/);
    expect(server.connections).toBe(0);

    await expect(
      sender(OPEN).send(`http://localhost:${server.port}/hook`, BODY, signed()),
    ).resolves.toMatchObject({ kind: 'delivered', statusCode: 200 });
    expect(server.received[0].headers.host).toBe(`localhost:${server.port}`);
  });

  it('refuses a name when an address it resolves to is not public', async () => {
    const lookup = fixedLookup({ 'receiver.test': ['10.0.0.1', '192.168.1.10'] });
    await expect(
      sender(STRICT, { lookup }).send('https://receiver.test/hook', BODY, signed()),
    ).resolves.toMatchObject({ kind: 'failed', error: 'address 10.0.0.1 is not public' });
    expect(lookup.calls).toEqual(['receiver.test']);
  });

  it('follows the operator configuration (AppConfig.webhooks)', async () => {
    const server = await receiver();
    const config = testConfig();
    const fromConfig = WebhookSender.fromConfig(config);
    cleanups.push(() => fromConfig.close());
    await expect(fromConfig.send(server.url, BODY, signed())).resolves.toMatchObject({
      kind: 'delivered',
    });
    const strict = WebhookSender.fromConfig(
      config.with({ webhooks: { ...config.webhooks, allowPrivateTargets: false, extraPorts: [] } }),
    );
    cleanups.push(() => strict.close());
    await expect(strict.send(server.url, BODY, signed())).resolves.toMatchObject({
      kind: 'failed',
      error: `port ${server.port} is not allowed`,
    });
  });
});

describe('WebhookSender: the dial goes to the checked address (DNS pinning)', () => {
  it('resolves once and connects to that answer, keeping the host name in Host', async () => {
    const server = await receiver();
    // The first answer is 127.0.0.1; any later lookup would say 127.0.0.2, where nothing listens.
    const calls: string[] = [];
    const rebinding: LookupAll = (hostname) => {
      calls.push(hostname);
      const address = calls.length === 1 ? '127.0.0.1' : '127.0.0.2';
      return Promise.resolve([{ address, family: 4 }]);
    };

    await expect(
      sender(OPEN, { lookup: rebinding }).send(
        `http://Receiver.TEST:${server.port}/hook`,
        BODY,
        signed(),
      ),
    ).resolves.toMatchObject({ kind: 'delivered', statusCode: 200 });
    expect(calls).toEqual(['receiver.test']);
    expect(server.received).toHaveLength(1);
    expect(server.received[0].headers.host).toBe(`receiver.test:${server.port}`);
  });

  it('pins each host to its own answer under concurrency', async () => {
    const a = await receiver(undefined, { host: '127.0.0.1' });
    const b = await receiver(undefined, { host: '127.0.0.2' });
    const lookup = fixedLookup({ 'a.test': ['127.0.0.1'], 'b.test': ['127.0.0.2'] });
    const webhooks = sender(OPEN, { lookup });
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        i % 2 === 0
          ? webhooks.send(`http://a.test:${a.port}/${i}`, BODY, signed())
          : webhooks.send(`http://b.test:${b.port}/${i}`, BODY, signed()),
      ),
    );
    expect(outcomes.every((o) => o.kind === 'delivered')).toBe(true);
    expect(a.received.map((r) => r.headers.host)).toEqual(
      Array.from({ length: 50 }, () => `a.test:${a.port}`),
    );
    expect(b.received.map((r) => r.headers.host)).toEqual(
      Array.from({ length: 50 }, () => `b.test:${b.port}`),
    );
    expect(webhooks['pins'].size).toBe(0); // nothing stays pinned once the sends are over
  });

  it('pins the same name to two receivers when the answers differ (same port)', async () => {
    const a = await receiver(undefined, { host: '127.0.0.1' });
    const b = await receiver(undefined, { host: '127.0.0.2', port: a.port });
    let answer = '127.0.0.1';
    const webhooks = sender(OPEN, {
      lookup: () => Promise.resolve([{ address: answer, family: 4 }]),
    });

    await expect(
      webhooks.send(`http://receiver.test:${a.port}/`, BODY, signed()),
    ).resolves.toMatchObject({ kind: 'delivered' });
    await webhooks.close(); // no kept-alive connection to carry the next send
    answer = '127.0.0.2';
    const fresh = sender(OPEN, { lookup: () => Promise.resolve([{ address: answer, family: 4 }]) });
    await expect(
      fresh.send(`http://receiver.test:${a.port}/`, BODY, signed()),
    ).resolves.toMatchObject({ kind: 'delivered' });
    expect(a.received).toHaveLength(1);
    expect(b.received).toHaveLength(1);
  });

  it('checks the certificate against the host name (SNI) while dialling the pinned address', async () => {
    const server = await receiver(undefined, { tls: true });
    const lookup = fixedLookup({ 'receiver.test': ['127.0.0.1'], 'other.test': ['127.0.0.1'] });
    const trusting = sender(OPEN, { lookup, ca: TLS_CERT });

    await expect(
      trusting.send(`https://receiver.test:${server.port}/hook`, BODY, signed()),
    ).resolves.toMatchObject({ kind: 'delivered', statusCode: 200, error: null });
    expect(server.received[0]).toMatchObject({
      servername: 'receiver.test',
      headers: expect.objectContaining({ host: `receiver.test:${server.port}` }),
      body: BODY,
    });

    // TLS failures are network errors: retried.
    await expect(
      trusting.send(`https://other.test:${server.port}/hook`, BODY, signed()),
    ).resolves.toMatchObject({
      kind: 'retry',
      statusCode: null,
      error: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });
    const untrusting = await sender(OPEN, { lookup }).send(
      `https://receiver.test:${server.port}/hook`,
      BODY,
      signed(),
    );
    expect(untrusting).toMatchObject({ kind: 'retry', statusCode: null });
    expect(untrusting.error).toMatch(/SELF_SIGNED/);
    expect(server.received).toHaveLength(1);
  });
});

/** A receiver in its own process (its own CPU), counting what it saw; stats over IPC. */
const CHILD_RECEIVER = `
const http = require('node:http');
const stats = { posts: 0, connections: 0, open: 0 };
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => { stats.posts += 1; res.end('ok'); });
});
server.on('connection', (socket) => {
  stats.connections += 1;
  stats.open += 1;
  socket.on('close', () => { stats.open -= 1; });
});
process.on('message', () => process.send(stats));
process.on('disconnect', () => process.exit(0));
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
`;

interface ChildStats {
  posts: number;
  connections: number;
  open: number;
}

describe('WebhookSender: many sends', () => {
  it('delivers 5,000 webhooks to one receiver on a bounded set of kept-alive sockets', async () => {
    const child = spawn(process.execPath, ['-e', CHILD_RECEIVER], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    cleanups.push(async () => {
      if (child.exitCode === null) {
        child.kill();
        await once(child, 'exit');
      }
    });
    const [{ port }] = (await once(child, 'message')) as [{ port: number }];
    const stats = async () => {
      child.send('stats');
      const [value] = (await once(child, 'message')) as [ChildStats];
      return value;
    };

    const lookup = fixedLookup({ 'receiver.test': ['127.0.0.1'] });
    const webhooks = new WebhookSender(OPEN, { lookup, connectionsPerOrigin: 64 });
    const kinds = new Map<string, number>();
    const deliver = async (total: number, concurrency: number) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < total) {
            next += 1;
            const { kind } = await webhooks.send(
              `http://receiver.test:${port}/hook`,
              BODY,
              signed(`msg_${next}_1`),
            );
            kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
          }
        }),
      );
    };

    // How fast is bench:webhooks' question; here: every send delivered, sockets bounded and freed.
    await deliver(500, 100);
    await deliver(5000, 100);

    expect(Object.fromEntries(kinds)).toEqual({ delivered: 5500 });
    const during = await stats();
    expect(during.posts).toBe(5500);
    expect(during.connections).toBeLessThanOrEqual(64); // kept alive and reused, never one per send
    expect(webhooks['pins'].size).toBe(0); // nothing stays pinned once the sends are over

    await webhooks.close();
    await eventually(async () => ((await stats()).open === 0 ? true : undefined), 5000);
  });
});

/** Resolves when `res` can take more data or is gone. */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
