import { type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type TestAccount, createAccount, startApi } from '../support/test-app';

/** The reference's official npm client (acuityscheduling 0.1.9, on the `request` library). */
interface AcuityClient {
  request(
    path: string,
    options: { method?: string; body?: unknown; qs?: Record<string, string> },
    callback: (err: Error | null, res: { statusCode: number }, body: unknown) => void,
  ): void;
}
// It has no types; it is required, and built with `basic()`, as its README shows.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Acuity = require('acuityscheduling') as {
  basic(config: { base: string; userId: number; apiKey: string }): AcuityClient;
};

/** What reached the service: each request's method, URL and Content-Type. */
interface Seen {
  method: string;
  url: string;
  contentType: string | undefined;
}

/**
 * A pass-through in front of the service that notes what each request carried, so that the test
 * can say what the client sent (its `request` library writes the headers).
 */
async function recordingProxy(target: number, seen: Seen[]): Promise<Server> {
  const proxy = createServer((req, res) => {
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      contentType: req.headers['content-type'],
    });
    const upstream = request(
      { host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return proxy;
}

/**
 * The reference's npm client, given only our base URL (and an account's user ID and API key),
 * lists, adds, changes and removes clients and reads /meta, as its users call it against the
 * reference.
 */
describe("Clients: the reference's npm client against the service (e2e)", () => {
  let app: NestFastifyApplication;
  let proxy: Server;
  let account: TestAccount;
  let acuity: AcuityClient;
  const seen: Seen[] = [];

  beforeAll(async () => {
    app = await startApi();
    await app.listen(0, '127.0.0.1');
    proxy = await recordingProxy((app.getHttpServer().address() as AddressInfo).port, seen);
    account = await createAccount(app);
    acuity = Acuity.basic({
      base: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      userId: account.id,
      apiKey: account.apiKey,
    });
  });

  afterAll(async () => {
    await new Promise((resolve) => proxy.close(resolve));
    await app.close();
  });

  const call = (
    path: string,
    options: { method?: string; body?: unknown; qs?: Record<string, string> } = {},
  ) =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) =>
      acuity.request(path, options, (err, res, body) =>
        err ? reject(err) : resolve({ status: res.statusCode, body }),
      ),
    );

  const jane = {
    firstName: 'Jane',
    lastName: 'Doe',
    email: 'jane@example.com',
    phone: '+1 555 0100',
    notes: 'First visit.',
  };

  it('lists, adds, changes and removes clients, sending bodies as application/json', async () => {
    expect(await call('/clients')).toEqual({ status: 200, body: [] });

    expect(await call('/clients', { method: 'POST', body: jane })).toEqual({
      status: 200,
      body: jane,
    });
    expect(
      await call('/clients', { method: 'POST', body: { firstName: 'Joe', lastName: 'Doe' } }),
    ).toEqual({
      status: 200,
      body: { firstName: 'Joe', lastName: 'Doe', email: '', phone: '', notes: '' },
    });
    expect(await call('/clients', { qs: { search: 'jane' } })).toEqual({
      status: 200,
      body: [jane],
    });

    // The reference's own lookup: first name, last name and phone in the query ("+" sent as %2B).
    const named = { firstName: 'Jane', lastName: 'Doe', phone: '+1 555 0100' };
    expect(
      await call('/clients', { method: 'PUT', qs: named, body: { notes: 'Regular.' } }),
    ).toEqual({ status: 200, body: { ...jane, notes: 'Regular.' } });
    expect(await call('/clients', { method: 'DELETE', qs: named })).toEqual({
      status: 204,
      body: undefined,
    });
    expect(await call('/clients')).toEqual({
      status: 200,
      body: [{ firstName: 'Joe', lastName: 'Doe', email: '', phone: '', notes: '' }],
    });

    // Every body went as JSON (anything else would be 415).
    const withBody = seen.filter((s) => s.method === 'POST' || s.method === 'PUT');
    expect(withBody.length).toBe(3);
    for (const request of withBody) expect(request.contentType).toBe('application/json');
    expect(seen.find((s) => s.method === 'PUT')!.url).toBe(
      '/api/v1/clients?firstName=Jane&lastName=Doe&phone=%2B1%20555%200100',
    );
  });

  it("gets the errors in the reference's envelope", async () => {
    expect(await call('/clients', { method: 'POST', body: { lastName: 'Doe' } })).toEqual({
      status: 400,
      body: {
        status_code: 400,
        error: 'required_first_name',
        message: 'Attribute "firstName" is required.',
      },
    });
    expect(
      await call('/clients', { method: 'DELETE', qs: { firstName: 'No', lastName: 'Body' } }),
    ).toEqual({
      status: 404,
      body: { status_code: 404, error: 'not_found', message: 'No client "No Body" was found.' },
    });
  });

  it('reads /meta', async () => {
    expect(await call('/meta')).toEqual({
      status: 200,
      body: {
        hooks: [],
        events: [
          'appointment.scheduled',
          'appointment.rescheduled',
          'appointment.canceled',
          'appointment.changed',
          'order.completed',
        ],
      },
    });
  });
});
