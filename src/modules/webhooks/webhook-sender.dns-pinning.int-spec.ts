import type { LookupAll } from './webhook-sender';
import {
  BODY,
  OPEN,
  TLS_CERT,
  closeAll,
  fixedLookup,
  receiver,
  sender,
  signed,
} from './webhook-sender.fixtures';

/*
 * WebhookSender: dialling the address it checked (DNS pinning). The receivers, senders and lookups
 * (all on this machine): webhook-sender.fixtures.ts.
 */

afterEach(closeAll);

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
