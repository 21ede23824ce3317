import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { Secrets } from '../../src/common/crypto/secrets';
import { OAuthToken } from '../../src/modules/oauth/oauth-token.entity';
import { s256 } from '../../src/modules/oauth/pkce';
import { startApi } from '../support/test-app';
import {
  type OwnerAccount,
  type TestClient,
  authorizationCode,
  bearer,
  clientBasic,
  exchangeFields,
  form,
  ownerAccount,
  registerClient,
  tokenRequest,
  CLIENT_CHALLENGE,
} from './oauth-fixtures';

/** The fields without some of them. */
function without(fields: Record<string, string>, ...names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => !names.includes(name)));
}
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';

describe('OAuth 2.0: POST /oauth2/token (e2e)', () => {
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
  // A fresh owner each: sign-in attempts per e-mail are limited.
  beforeEach(async () => {
    owner = await ownerAccount(app);
  });

  const me = (token: string) =>
    app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: bearer(token) } });

  /** The response as a client sees it: status, body, and the headers that matter. */
  const seen = (res: Awaited<ReturnType<typeof tokenRequest>>) => ({
    status: res.statusCode,
    body: res.json(),
    cacheControl: res.headers['cache-control'],
    challenge: res.headers['www-authenticate'],
  });
  const failure = (status: number, error: string, message: string) => ({
    status,
    body: { error, message },
    cacheControl: 'no-store',
    challenge: status === 401 ? CLIENT_CHALLENGE : undefined,
  });

  describe('success', () => {
    it('exchanges a code for {access_token, token_type: "Bearer"}, not cached; the token is stored hashed', async () => {
      const code = await authorizationCode(app, client, owner);
      const res = await tokenRequest(app, exchangeFields(client, code));
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers.pragma).toBe('no-cache');
      const body = res.json();
      expect(body).toEqual({
        access_token: expect.stringMatching(/^[0-9a-f]{64}$/),
        token_type: 'Bearer',
      });

      const row = await app
        .get(DataSource)
        .getRepository(OAuthToken)
        .findOneByOrFail({ tokenHash: app.get(Secrets).hash(body.access_token) });
      expect(JSON.stringify(row)).not.toContain(body.access_token);
      expect(row).toMatchObject({ accountId: owner.id, revokedAt: null });

      const account = await me(body.access_token);
      expect(account.statusCode).toBe(200);
      expect(account.json()).toMatchObject({ id: owner.id, email: owner.email });
    });

    it('authenticates the client with HTTP Basic (client_secret_basic), client_id in the body or not', async () => {
      for (const withId of [false, true]) {
        const code = await authorizationCode(app, client, owner);
        const fields = without(exchangeFields(client, code), 'client_secret', 'client_id');
        const res = await tokenRequest(
          app,
          withId ? { ...fields, client_id: client.clientId } : fields,
          {
            authorization: clientBasic(client.clientId, client.clientSecret),
          },
        );
        expect({ withId, status: res.statusCode }).toEqual({ withId, status: 200 });
      }
    });

    it('ignores parameters it does not know (RFC 6749 §3.2)', async () => {
      const code = await authorizationCode(app, client, owner);
      const res = await tokenRequest(app, exchangeFields(client, code, { audience: 'x' }));
      expect(res.statusCode).toBe(200);
    });

    it('accepts the scope the code grants', async () => {
      const code = await authorizationCode(app, client, owner);
      const res = await tokenRequest(app, exchangeFields(client, code, { scope: 'api-v1' }));
      expect(res.statusCode).toBe(200);
    });
  });

  describe('the request: invalid_request, unsupported_grant_type, invalid_scope (400)', () => {
    const valid = () => exchangeFields(client, 'a'.repeat(64));
    const lacking = (name: string) => () => without(valid(), name);
    const cases: [string, () => Record<string, string> | string, string, string][] = [
      [
        'no grant_type',
        lacking('grant_type'),
        'invalid_request',
        'The parameter "grant_type" is required.',
      ],
      [
        'an empty grant_type',
        () => ({ ...valid(), grant_type: '' }),
        'invalid_request',
        'The parameter "grant_type" is required.',
      ],
      [
        'grant_type=password',
        () => ({ ...valid(), grant_type: 'password' }),
        'unsupported_grant_type',
        'The grant type "password" is not supported: use "authorization_code".',
      ],
      [
        'grant_type=client_credentials',
        () => ({ ...valid(), grant_type: 'client_credentials' }),
        'unsupported_grant_type',
        'The grant type "client_credentials" is not supported: use "authorization_code".',
      ],
      [
        'no client_id',
        lacking('client_id'),
        'invalid_request',
        'The parameter "client_id" is required.',
      ],
      [
        'no client_secret',
        lacking('client_secret'),
        'invalid_request',
        'The parameter "client_secret" is required.',
      ],
      ['no code', lacking('code'), 'invalid_request', 'The parameter "code" is required.'],
      [
        'no redirect_uri',
        lacking('redirect_uri'),
        'invalid_request',
        'The parameter "redirect_uri" is required.',
      ],
      [
        'a malformed code_verifier',
        () => ({ ...valid(), code_verifier: 'short' }),
        'invalid_request',
        'The code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~".',
      ],
      [
        'another scope',
        () => ({ ...valid(), scope: 'admin' }),
        'invalid_scope',
        'The scope must be "api-v1".',
      ],
      ...[
        'grant_type',
        'code',
        'redirect_uri',
        'client_id',
        'client_secret',
        'code_verifier',
        'scope',
      ].map((name): [string, () => string, string, string] => [
        `a repeated ${name}`,
        () => `${form({ ...valid(), code_verifier: VERIFIER })}&${name}=x&${name}=y`,
        'invalid_request',
        `The parameter "${name}" is repeated.`,
      ]),
    ];

    it.each(cases)('%s', async (_, fields, error, message) => {
      const res = await tokenRequest(app, fields());
      expect(seen(res)).toEqual(failure(400, error, message));
    });

    it.each([
      ['JSON', 'application/json', JSON.stringify({ grant_type: 'authorization_code' })],
      ['malformed JSON', 'application/json', '{"grant_type":'],
      ['text', 'text/plain', 'grant_type=authorization_code'],
    ])('refuses a %s body: it must be form-encoded', async (_, contentType, payload) => {
      const res = await tokenRequest(app, payload, { 'content-type': contentType });
      expect(seen(res)).toEqual(
        failure(
          400,
          'invalid_request',
          'The request body must be application/x-www-form-urlencoded.',
        ),
      );
    });

    it('refuses a request without body', async () => {
      const res = await app.inject({ method: 'POST', url: '/oauth2/token' });
      expect(seen(res)).toEqual(
        failure(
          400,
          'invalid_request',
          'The request body must be application/x-www-form-urlencoded.',
        ),
      );
    });

    it('refuses a body larger than 16 KiB with 413', async () => {
      const res = await tokenRequest(app, `grant_type=${'x'.repeat(16 * 1024)}`);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({
        error: 'invalid_request',
        message: 'The request body is larger than 16384 bytes.',
      });
    });

    it('is not a GET', async () => {
      const res = await app.inject({ method: 'GET', url: '/oauth2/token' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'not_found', message: 'Not Found' });
    });
  });

  describe('client authentication: invalid_client (401 with the Basic challenge)', () => {
    it.each([
      ['a wrong secret in the body', () => ({ client_secret: 'f'.repeat(64) }), {}],
      ["another client's secret", () => ({ client_secret: other.clientSecret }), {}],
      ['an unknown client', () => ({ client_id: 'f'.repeat(32) }), {}],
      ['a client_id that is no id', () => ({ client_id: '../../x' }), {}],
    ])('%s', async (_, change, headers) => {
      const code = await authorizationCode(app, client, owner);
      const res = await tokenRequest(
        app,
        { ...exchangeFields(client, code), ...change() },
        headers,
      );
      expect(seen(res)).toEqual(failure(401, 'invalid_client', 'Client authentication failed.'));
    });

    it.each([
      ['a wrong secret', () => clientBasic(client.clientId, 'nope')],
      ['an unknown client', () => clientBasic('f'.repeat(32), client.clientSecret)],
    ])('Basic with %s', async (_, header) => {
      const code = await authorizationCode(app, client, owner);
      const fields = without(exchangeFields(client, code), 'client_secret', 'client_id');
      const res = await tokenRequest(app, fields, { authorization: header() });
      expect(seen(res)).toEqual(failure(401, 'invalid_client', 'Client authentication failed.'));
    });

    it.each([
      ['another scheme', `Bearer ${'a'.repeat(64)}`],
      ['not base64', 'Basic !!!'],
      ['no colon', `Basic ${Buffer.from('justanid').toString('base64')}`],
      ['a bad %-escape', `Basic ${Buffer.from('%zz:secret').toString('base64')}`],
    ])('a malformed Authorization header: %s', async (_, header) => {
      const res = await tokenRequest(
        app,
        {
          grant_type: 'authorization_code',
          code: 'a'.repeat(64),
          redirect_uri: client.redirectUri,
        },
        { authorization: header },
      );
      expect(seen(res)).toEqual(
        failure(
          401,
          'invalid_client',
          'Client authentication failed: the Authorization header must be Basic credentials.',
        ),
      );
    });

    it('refuses credentials sent both ways (RFC 6749 §2.3.1)', async () => {
      const res = await tokenRequest(app, exchangeFields(client, 'a'.repeat(64)), {
        authorization: clientBasic(client.clientId, client.clientSecret),
      });
      expect(seen(res)).toEqual(
        failure(
          400,
          'invalid_request',
          'Send the client credentials once: in the Authorization header or in the body, not both.',
        ),
      );
    });

    it('refuses a body client_id other than the Basic one', async () => {
      const fields = without(exchangeFields(client, 'a'.repeat(64)), 'client_secret');
      const res = await tokenRequest(app, fields, {
        authorization: clientBasic(other.clientId, other.clientSecret),
      });
      expect(seen(res)).toEqual(
        failure(
          400,
          'invalid_request',
          'The parameter "client_id" does not match the client of the Authorization header.',
        ),
      );
    });
  });

  describe('the code: invalid_grant (400)', () => {
    const grantError = (message: string) => failure(400, 'invalid_grant', message);

    it.each([
      ['an unknown code', 'f'.repeat(64)],
      ['a code of another shape', 'not-a-code'],
    ])('%s', async (_, code) => {
      const res = await tokenRequest(app, exchangeFields(client, code));
      expect(seen(res)).toEqual(grantError('The authorization code is invalid.'));
    });

    it("refuses another client's code without using it up", async () => {
      const code = await authorizationCode(app, client, owner);
      const res = await tokenRequest(
        app,
        exchangeFields(other, code, { redirect_uri: client.redirectUri }),
      );
      expect(seen(res)).toEqual(grantError('The authorization code was issued to another client.'));
      // The app it was issued to still exchanges it.
      expect((await tokenRequest(app, exchangeFields(client, code))).statusCode).toBe(200);
    });

    it('refuses another redirect_uri than the authorization request had', async () => {
      const code = await authorizationCode(app, client, owner);
      const res = await tokenRequest(
        app,
        exchangeFields(client, code, { redirect_uri: `${client.redirectUri}/other` }),
      );
      expect(seen(res)).toEqual(
        grantError('The redirect_uri does not match the one of the authorization request.'),
      );
      expect((await tokenRequest(app, exchangeFields(client, code))).statusCode).toBe(200);
    });

    it('refuses a code after 10 minutes', async () => {
      const code = await authorizationCode(app, client, owner);
      // Ten minutes and a moment later.
      await app
        .get(DataSource)
        .query('UPDATE oauth_codes SET expires_at = ? WHERE code_hash = ?', [
          new Date(Date.now() - 1),
          app.get(Secrets).hash(code),
        ]);
      const res = await tokenRequest(app, exchangeFields(client, code));
      expect(seen(res)).toEqual(grantError('The authorization code has expired.'));
    });

    it('refuses a reused code and revokes the token issued from it, at once', async () => {
      const code = await authorizationCode(app, client, owner);
      const first = await tokenRequest(app, exchangeFields(client, code));
      expect(first.statusCode).toBe(200);
      const token = first.json().access_token as string;
      expect((await me(token)).statusCode).toBe(200); // cached on this process now

      const again = await tokenRequest(app, exchangeFields(client, code));
      expect(seen(again)).toEqual(
        grantError(
          'The authorization code has already been used; the access token issued for it is revoked.',
        ),
      );
      const refused = await me(token);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({
        status_code: 401,
        message: 'Unauthorized',
        error: 'unauthorized',
      });
      const row = await app
        .get(DataSource)
        .getRepository(OAuthToken)
        .findOneByOrFail({ tokenHash: app.get(Secrets).hash(token) });
      expect(row.revokedAt).toBeInstanceOf(Date);
    });

    it('a reused code revokes only its own tokens', async () => {
      const [codeA, codeB] = [
        await authorizationCode(app, client, owner),
        await authorizationCode(app, client, owner),
      ];
      const tokenA = (await tokenRequest(app, exchangeFields(client, codeA))).json().access_token;
      const tokenB = (await tokenRequest(app, exchangeFields(client, codeB))).json().access_token;
      await tokenRequest(app, exchangeFields(client, codeA));
      expect((await me(tokenA)).statusCode).toBe(401);
      expect((await me(tokenB)).statusCode).toBe(200);
    });

    it('of 12 exchanges of one code at once, one gets a token, which the others revoke', async () => {
      const code = await authorizationCode(app, client, owner);
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => tokenRequest(app, exchangeFields(client, code))),
      );
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses).toEqual([200, ...Array<number>(11).fill(400)]);
      for (const refused of answers.filter((a) => a.statusCode === 400))
        expect(refused.json().error).toBe('invalid_grant');
      const tokens = await app
        .get(DataSource)
        .query(
          'SELECT t.revoked_at FROM oauth_tokens t JOIN oauth_codes c ON c.id = t.code_id WHERE c.code_hash = ?',
          [app.get(Secrets).hash(code)],
        );
      expect(tokens).toEqual([{ revoked_at: expect.any(Date) }]);
      const token = answers.find((a) => a.statusCode === 200)!.json().access_token;
      expect((await me(token)).statusCode).toBe(401);
    });
  });

  describe('PKCE (S256)', () => {
    const pkce = { code_challenge: s256(VERIFIER), code_challenge_method: 'S256' };

    it('exchanges a code with the verifier of its challenge', async () => {
      const code = await authorizationCode(app, client, owner, pkce);
      const res = await tokenRequest(
        app,
        exchangeFields(client, code, { code_verifier: VERIFIER }),
      );
      expect(res.statusCode).toBe(200);
    });

    it('refuses another verifier, then still takes the right one', async () => {
      const code = await authorizationCode(app, client, owner, pkce);
      const wrong = await tokenRequest(
        app,
        exchangeFields(client, code, { code_verifier: `${VERIFIER.slice(0, -1)}l` }),
      );
      expect(seen(wrong)).toEqual(
        failure(400, 'invalid_grant', 'The code_verifier does not match the code_challenge.'),
      );
      const right = await tokenRequest(
        app,
        exchangeFields(client, code, { code_verifier: VERIFIER }),
      );
      expect(right.statusCode).toBe(200);
    });

    it('refuses a code with a challenge exchanged without verifier', async () => {
      const code = await authorizationCode(app, client, owner, pkce);
      const res = await tokenRequest(app, exchangeFields(client, code));
      expect(seen(res)).toEqual(
        failure(
          400,
          'invalid_grant',
          'The code_verifier is missing: the authorization request had a code_challenge.',
        ),
      );
    });

    it('refuses a verifier for a code without challenge (a stripped challenge)', async () => {
      const code = await authorizationCode(app, client, owner);
      const res = await tokenRequest(
        app,
        exchangeFields(client, code, { code_verifier: VERIFIER }),
      );
      expect(seen(res)).toEqual(
        failure(
          400,
          'invalid_grant',
          'The authorization request had no code_challenge: send no code_verifier.',
        ),
      );
    });
  });
});
