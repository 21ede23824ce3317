import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type TestAccount, createAccount, startApi } from '../support/test-app';

const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

const UNAUTHORIZED = { status_code: 401, message: 'Unauthorized', error: 'unauthorized' };

describe('Hardening: Basic credentials (e2e)', () => {
  let app: NestFastifyApplication;
  let account: TestAccount;

  beforeAll(async () => {
    app = await startApi();
    account = await createAccount(app);
  });
  afterAll(() => app.close());

  const me = (authorization: string) =>
    app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization } });

  // Issue 20 item 6: passport-http split the credentials at every colon and took the second part.
  describe('the user ID is what precedes the first colon, the key all that follows (RFC 7617)', () => {
    it('takes the user ID and key', async () => {
      const res = await me(basic(`${account.id}:${account.apiKey}`));
      expect(res.statusCode).toBe(200);
    });

    it.each([
      ['text after the key', (id: number, key: string) => `${id}:${key}:anything`],
      ['a colon after the key', (id: number, key: string) => `${id}:${key}:`],
      [
        'the key in two parts',
        (id: number, key: string) => `${id}:${key.slice(0, 8)}:${key.slice(8)}`,
      ],
    ])('refuses %s: it is part of the key', async (_, credentials) => {
      // Proven moments ago: the fast path must not take it either.
      expect((await me(basic(`${account.id}:${account.apiKey}`))).statusCode).toBe(200);
      const res = await me(basic(credentials(account.id, account.apiKey)));
      expect({ status: res.statusCode, body: res.json() }).toEqual({
        status: 401,
        body: UNAUTHORIZED,
      });
    });
  });

  // Issue 20 item 5: a wrong key for an existing user ID answered faster than any key for an
  // unknown one (a query each time), which told which user IDs exist.
  it('takes as long to refuse an unknown user ID as a wrong key', async () => {
    const unknownId = 2_000_000_000 + (account.id % 100_000_000);
    const existing = basic(`${account.id}:${'0'.repeat(32)}`);
    const unknown = basic(`${unknownId}:${'0'.repeat(32)}`);
    const timed = async (authorization: string) => {
      const start = process.hrtime.bigint();
      const res = await me(authorization);
      expect(res.statusCode).toBe(401);
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    for (let i = 0; i < 20; i++) await Promise.all([timed(existing), timed(unknown)]);

    const times = { existing: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < 300; i++) {
      // Interleaved, each first in turn: a pause of the machine hits both alike.
      if (i % 2 === 0) {
        times.existing.push(await timed(existing));
        times.unknown.push(await timed(unknown));
      } else {
        times.unknown.push(await timed(unknown));
        times.existing.push(await timed(existing));
      }
    }
    const ratio = median(times.unknown) / median(times.existing);
    expect({ ratio, within: ratio >= 0.67 && ratio <= 1.5 }).toEqual({
      ratio,
      within: true,
    });
  });
});
