import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type TestAccount, createAccount, startApi } from '../support/test-app';

const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

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
});
