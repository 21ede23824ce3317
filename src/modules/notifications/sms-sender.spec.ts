import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { AppConfig } from '../../config/app-config';
import { HttpSmsSender, LogSmsSender, smsSenderProvider } from './sms-sender';

const HTTP = {
  driver: 'http' as const,
  accountSid: 'AC1',
  authToken: 'token',
  from: '+15550001111',
};

describe('SMS senders', () => {
  it('log driver: writes the SMS to the log and counts it sent', async () => {
    const lines: string[] = [];
    const logger = pino(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    await expect(new LogSmsSender(logger).send('+15550100', 'Hello')).resolves.toEqual({
      kind: 'sent',
      providerMessageId: null,
    });
    expect(JSON.parse(lines[0])).toMatchObject({ sms: { to: '+15550100', body: 'Hello' } });
  });

  it('chooses the driver from the configuration (log by default)', () => {
    const logger = pino({ level: 'silent' });
    const make = (env: NodeJS.ProcessEnv) =>
      smsSenderProvider.useFactory(AppConfig.fromEnvironment(env), logger) as unknown;
    expect(make({})).toBeInstanceOf(LogSmsSender);
    const http = make({
      SMS_DRIVER: 'http',
      SMS_API_URL: 'http://127.0.0.1:9/api',
      SMS_ACCOUNT_SID: 'AC1',
      SMS_AUTH_TOKEN: 't',
      SMS_FROM: '+1555',
    });
    expect(http).toBeInstanceOf(HttpSmsSender);
    return (http as HttpSmsSender).onApplicationShutdown();
  });

  it('http driver: a network error is retried, with its code', async () => {
    // A port nothing listens on: bound, then closed.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const sender = new HttpSmsSender({ ...HTTP, apiUrl: `http://127.0.0.1:${port}` });
    try {
      await expect(sender.send('+15550100', 'Hello')).resolves.toEqual({
        kind: 'retry',
        error: expect.stringContaining('ECONNREFUSED'),
      });
    } finally {
      await sender.onApplicationShutdown();
    }
  });

  it.each([
    [201, '{"sid":"SM42"}', { kind: 'sent', providerMessageId: 'SM42' }],
    [200, 'not json', { kind: 'sent', providerMessageId: null }],
    [
      429,
      '{"message":"Too many requests"}',
      { kind: 'retry', error: 'HTTP 429: Too many requests' },
    ],
    [503, '', { kind: 'retry', error: 'HTTP 503' }],
    [
      401,
      '{"code":20003,"message":"Authenticate"}',
      { kind: 'failed', error: 'HTTP 401: Authenticate' },
    ],
  ])('http driver: answer %d %s → %j', async (status, body, outcome) => {
    const server = createServer((_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const sender = new HttpSmsSender({ ...HTTP, apiUrl: `http://127.0.0.1:${port}` });
    try {
      await expect(sender.send('+15550100', 'Hello')).resolves.toEqual(outcome);
    } finally {
      await sender.onApplicationShutdown();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
