import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { Secrets } from '../../src/common/crypto/secrets';
import { OAuthToken } from '../../src/modules/oauth/oauth-token.entity';
import { apiClient } from '../support/api-client';
import { createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';
import {
  type OwnerAccount,
  type TestClient,
  accessToken,
  bearer,
  clientBasic,
  form,
  ownerAccount,
  registerClient,
  CLIENT_CHALLENGE,
} from './oauth-fixtures';

const UNAUTHORIZED = { status_code: 401, message: 'Unauthorized', error: 'unauthorized' };
const BEARER_CHALLENGE = 'Bearer realm="api", error="invalid_token"';

describe('OAuth 2.0: Bearer tokens on the API and POST /oauth2/disconnect (e2e)', () => {
  let app: NestFastifyApplication;
  let client: TestClient;
  let other: TestClient;
  let owner: OwnerAccount;

  beforeAll(async () => {
    app = await startApi();
    client = await registerClient(app, { name: 'Partner App' });
    other = await registerClient(app, { name: 'Other App' });
  });
  afterAll(() => app.close());
  beforeEach(async () => {
    owner = await ownerAccount(app);
  });

  const get = (url: string, authorization?: string, target = app) =>
    target.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });

  const disconnect = (
    fields: Record<string, string> | string,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method: 'POST',
      url: '/oauth2/disconnect',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: typeof fields === 'string' ? fields : form(fields),
    });

  const disconnectFields = (token: string, by: TestClient = client) => ({
    access_token: token,
    client_id: by.clientId,
    client_secret: by.clientSecret,
  });

  describe('Authorization: Bearer', () => {
    it("acts on the token's account, on every route, as Basic does", async () => {
      const token = await accessToken(app, client, owner);
      const res = await get('/api/v1/me', bearer(token));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: owner.id, email: owner.email, name: owner.name });

      // A write with the token is the account's: Basic sees it.
      const viaToken = apiClient(app, { id: owner.id, apiKey: '', authorization: bearer(token) });
      const calendarId = await createCalendar(viaToken, { name: 'Connected room' });
      const listed = await apiClient(app, owner).get('/calendars');
      expect((listed.body as { id: number }[]).map((c) => c.id)).toContain(calendarId);

      // Another account's resource is forbidden, as for Basic.
      const stranger = await createAccount(app);
      const theirs = await createCalendar(apiClient(app, stranger));
      expect((await viaToken.get(`/calendars/${theirs}`)).status).toBe(403);
    });

    it('accepts the scheme in any case', async () => {
      const token = await accessToken(app, client, owner);
      expect((await get('/api/v1/me', `bearer ${token}`)).statusCode).toBe(200);
    });

    it.each([
      ['an unknown token', () => bearer('f'.repeat(64))],
      ['a token of another shape', () => bearer('not-a-token')],
      ['an API key as a Bearer token', () => bearer(owner.apiKey)],
    ])('refuses %s: 401 unauthorized, the Bearer challenge', async (_, header) => {
      const res = await get('/api/v1/me', header());
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
      expect(res.headers['www-authenticate']).toBe(BEARER_CHALLENGE);
    });

    it('reads the token from the header only (not the query string, which is logged)', async () => {
      const token = await accessToken(app, client, owner);
      const res = await get(`/api/v1/me?access_token=${token}`);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Basic realm="api", charset="UTF-8"');
    });

    it('leaves Basic as it was', async () => {
      expect((await get('/api/v1/me', owner.authorization)).statusCode).toBe(200);
      const res = await get('/api/v1/me');
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Basic realm="api", charset="UTF-8"');
    });

    it('is stored as a keyed hash only', async () => {
      const token = await accessToken(app, client, owner);
      const rows = await app
        .get(DataSource)
        .getRepository(OAuthToken)
        .findBy({ accountId: owner.id });
      expect(rows).toHaveLength(1);
      expect(rows[0].tokenHash).toBe(app.get(Secrets).hash(token));
      expect(JSON.stringify(rows)).not.toContain(token);
    });
  });

  describe('POST /oauth2/disconnect', () => {
    it('disables the token at once: 200 {}, then 401 with the Bearer challenge', async () => {
      const token = await accessToken(app, client, owner);
      expect((await get('/api/v1/me', bearer(token))).statusCode).toBe(200); // cached now

      const res = await disconnect(disconnectFields(token));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({});
      expect(res.headers['cache-control']).toBe('no-store');

      const refused = await get('/api/v1/me', bearer(token));
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual(UNAUTHORIZED);
      expect(refused.headers['www-authenticate']).toBe(BEARER_CHALLENGE);
      // The account's other credentials still work.
      expect((await get('/api/v1/me', owner.authorization)).statusCode).toBe(200);
    });

    it("leaves the account's other tokens working", async () => {
      const [first, second] = [
        await accessToken(app, client, owner),
        await accessToken(app, client, owner),
      ];
      await disconnect(disconnectFields(first));
      expect((await get('/api/v1/me', bearer(first))).statusCode).toBe(401);
      expect((await get('/api/v1/me', bearer(second))).statusCode).toBe(200);
    });

    it('authenticates the client with Basic too', async () => {
      const token = await accessToken(app, client, owner);
      const res = await disconnect(
        { access_token: token },
        { authorization: clientBasic(client.clientId, client.clientSecret) },
      );
      expect(res.statusCode).toBe(200);
      expect((await get('/api/v1/me', bearer(token))).statusCode).toBe(401);
    });

    it('answers 200 for a token already disabled or unknown (the app got what it asked)', async () => {
      const token = await accessToken(app, client, owner);
      await disconnect(disconnectFields(token));
      for (const again of [token, 'f'.repeat(64), 'whatever']) {
        const res = await disconnect(disconnectFields(again));
        expect({ again, status: res.statusCode, body: res.json() }).toEqual({
          again,
          status: 200,
          body: {},
        });
      }
    });

    it.each([
      [
        "another client's token",
        (token: string) => disconnectFields(token, other),
        400,
        'invalid_grant',
        'The access token was issued to another client.',
      ],
      [
        'no access_token',
        (token: string) => ({ ...disconnectFields(token), access_token: '' }),
        400,
        'invalid_request',
        'The parameter "access_token" is required.',
      ],
      [
        'a repeated access_token',
        (token: string) => `${form(disconnectFields(token))}&access_token=x`,
        400,
        'invalid_request',
        'The parameter "access_token" is repeated.',
      ],
      [
        'no client_id',
        (token: string) => ({ access_token: token, client_secret: client.clientSecret }),
        400,
        'invalid_request',
        'The parameter "client_id" is required.',
      ],
      [
        'no client_secret',
        (token: string) => ({ access_token: token, client_id: client.clientId }),
        400,
        'invalid_request',
        'The parameter "client_secret" is required.',
      ],
      [
        'a wrong client_secret',
        (token: string) => ({ ...disconnectFields(token), client_secret: 'nope' }),
        401,
        'invalid_client',
        'Client authentication failed.',
      ],
    ])('refuses %s and leaves the token working', async (_, fields, status, error, message) => {
      const token = await accessToken(app, client, owner);
      const res = await disconnect(fields(token));
      expect({
        status: res.statusCode,
        body: res.json(),
        challenge: res.headers['www-authenticate'],
      }).toEqual({
        status,
        body: { error, message },
        challenge: status === 401 ? CLIENT_CHALLENGE : undefined,
      });
      expect((await get('/api/v1/me', bearer(token))).statusCode).toBe(200);
    });

    it('refuses a body that is not form-encoded', async () => {
      const res = await disconnect(JSON.stringify({ access_token: 'x' }), {
        'content-type': 'application/json',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: 'invalid_request',
        message: 'The request body must be application/x-www-form-urlencoded.',
      });
    });
  });
});
