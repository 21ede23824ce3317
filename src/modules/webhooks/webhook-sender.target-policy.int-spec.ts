import { testConfig } from '../../../test/support/test-environment';
import { WebhookSender } from './webhook-sender';
import {
  BODY,
  OPEN,
  STRICT,
  cleanups,
  closeAll,
  fixedLookup,
  receiver,
  sender,
  signed,
} from './webhook-sender.fixtures';

/*
 * WebhookSender: the target policy at send time. The receivers, senders and lookups (all on this
 * machine): webhook-sender.fixtures.ts.
 */

afterEach(closeAll);

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
