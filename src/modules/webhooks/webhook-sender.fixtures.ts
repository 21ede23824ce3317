import { once } from 'node:events';
import {
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  createServer as createHttpServer,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, type Socket, createServer as createNetServer } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { signatureHeaders, webhookBody } from './webhook-payload';
import {
  type LookupAll,
  type SendOutcome,
  type SendTimeout,
  type SenderPolicy,
  WebhookSender,
  type WebhookSenderOptions,
} from './webhook-sender';

/*
 * What the WebhookSender specs share: receivers, senders and lookups, closed after each test. Every
 * server listens on 127.0.0.1 (or 127.0.0.2); host names other than localhost are resolved by the
 * test's own lookup, so no packet leaves the machine.
 */

/** Self-signed, for receiver.test only, valid 2000–2100 (EC P-256; test use only). */
const TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgxyJA0TW+52FxaApV
c5UYPh16JY6P22V7rK97D3kuqSOhRANCAAR5x7bAqDmkK8LRy7sxfkxXoIcKmhpJ
xM9t9ZUsqyON5f7cl84JvU+gFMs3jNN8FL1DwQRO0iTk/Rs3rSFIO89u
-----END PRIVATE KEY-----
`;
export const TLS_CERT = `-----BEGIN CERTIFICATE-----
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

export const OPEN: SenderPolicy = { extraPorts: 'any', allowPrivateTargets: true };
export const STRICT: SenderPolicy = { extraPorts: 'any', allowPrivateTargets: false };
export const API_KEY = 'api-key-0123456789';
export const BODY = webhookBody({
  action: 'scheduled',
  id: 42,
  calendarID: 7,
  appointmentTypeID: 3,
});

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  servername: string | false | null | undefined;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

export interface Receiver {
  port: number;
  url: string;
  received: Received[];
  /** Connections accepted so far. */
  connections: number;
  openSockets(): number;
  close(): Promise<void>;
}

/** What a test opened (senders, receivers, processes): every spec has `afterEach(closeAll)`. */
export const cleanups: (() => Promise<void>)[] = [];

export async function closeAll(): Promise<void> {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
}

export function sender(
  policy: SenderPolicy = OPEN,
  options: WebhookSenderOptions = {},
): WebhookSender {
  const created = new WebhookSender(policy, options);
  cleanups.push(() => created.close());
  return created;
}

/** An HTTP(S) server that records each request, then lets `handler` answer (200 by default). */
export async function receiver(
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
export async function tcpServer(onConnection: (socket: Socket) => void): Promise<number> {
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

/**
 * A retry because the attempt hit `limit`, set to 300 ms: not before, and not much after (undici's
 * timers tick every 500 ms or so, so up to about that late), far from the other limits.
 */
export function expectTimedOut(outcome: SendOutcome, limit: SendTimeout, error: string): void {
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

/** A port on 127.0.0.1 where nothing listens. */
export async function closedPort(): Promise<number> {
  const server = createNetServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A lookup answering from a table, recording its calls. */
export function fixedLookup(table: Record<string, string[]>): LookupAll & { calls: string[] } {
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

export function signed(webhookId = 'msg_1_1') {
  return signatureHeaders({ apiKey: API_KEY, webhookId, timestamp: new Date(), body: BODY });
}
