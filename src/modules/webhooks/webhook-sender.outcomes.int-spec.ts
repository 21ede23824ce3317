import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { eventually } from '../../../test/support/eventually';
import { type LookupAll, WEBHOOK_USER_AGENT, WebhookSender } from './webhook-sender';
import {
  API_KEY,
  BODY,
  OPEN,
  cleanups,
  closeAll,
  closedPort,
  expectTimedOut,
  receiver,
  sender,
  signed,
  tcpServer,
} from './webhook-sender.fixtures';
import { testConfig } from '../../../test/support/test-environment';

/*
 * WebhookSender: its outcomes from real HTTP receivers. The receivers, senders and lookups (all on
 * this machine): webhook-sender.fixtures.ts.
 */

afterEach(closeAll);

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
