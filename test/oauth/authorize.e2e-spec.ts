import { CommandBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { Secrets } from '../../src/common/crypto/secrets';
import { SetPasswordCommand } from '../../src/modules/accounts/account.commands';
import { OAuthCode } from '../../src/modules/oauth/oauth-code.entity';
import { createAccount, startApi } from '../support/test-app';
import {
  type OwnerAccount,
  type TestClient,
  UserAgent,
  authorizeQuery,
  csrfOf,
  ownerAccount,
  registerClient,
  requestOf,
  sessionCookieOf,
} from './oauth-fixtures';

const FORM_EXPIRED = 'This form has expired. Please try again.';
const INCORRECT = 'The e-mail address or password is incorrect.';
const REDIRECT = 'http://127.0.0.1:9/partner/callback';

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

/** What a person reads of a page: the text of its alert, if any. */
function alertOf(html: string): string | undefined {
  const text = /role="alert"[^>]*>([^<]*)</.exec(html)?.[1];
  return text?.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]);
}

describe('OAuth 2.0: GET /oauth2/authorize, the login and consent pages (e2e)', () => {
  let app: NestFastifyApplication;
  let client: TestClient;
  let owner: OwnerAccount;

  beforeAll(async () => {
    app = await startApi();
    client = await registerClient(app, { name: 'Partner App', redirectUris: [REDIRECT] });
  });
  // A fresh owner each: every sign-in attempt counts towards the e-mail's limit (5 per 15 min).
  beforeEach(async () => {
    owner = await ownerAccount(app);
  });
  afterAll(() => app.close());

  const page = (query: string, agent = new UserAgent(app)) =>
    agent.get(`/oauth2/authorize?${query}`);

  describe('a request the service cannot send back: an error page, never a redirect', () => {
    const cases: [string, () => string, string, string][] = [
      [
        'no client_id',
        () =>
          authorizeQuery({
            response_type: 'code',
            scope: 'api-v1',
            redirect_uri: client.redirectUri,
          }),
        'Unknown application',
        'The request has no "client_id": the application that sent you here is misconfigured.',
      ],
      [
        'a repeated client_id',
        () => `${requestOf(client)}&client_id=${client.clientId}`,
        'Unknown application',
        'The parameter "client_id" is repeated.',
      ],
      [
        'an unknown client_id',
        () => requestOf({ ...client, clientId: '0123456789abcdef0123456789abcdef' }),
        'Unknown application',
        'The application "0123456789abcdef0123456789abcdef" is not registered.',
      ],
      [
        'a client_id that is no id at all',
        () => requestOf({ ...client, clientId: '<b>x</b>' }),
        'Unknown application',
        'The application "<b>x</b>" is not registered.',
      ],
      [
        'no redirect_uri',
        () => requestOf(client, { redirect_uri: undefined }),
        'Invalid redirect URI',
        'The request has no "redirect_uri": Partner App is misconfigured.',
      ],
      [
        'a repeated redirect_uri',
        () => `${requestOf(client)}&redirect_uri=${encodeURIComponent(client.redirectUri)}`,
        'Invalid redirect URI',
        'The parameter "redirect_uri" is repeated.',
      ],
      [
        'a redirect_uri not registered',
        () => requestOf(client, { redirect_uri: 'https://attacker.example/callback' }),
        'Invalid redirect URI',
        'The redirect URI "https://attacker.example/callback" is not registered for Partner App.',
      ],
      [
        'a longer path than registered',
        () => requestOf(client, { redirect_uri: `${client.redirectUri}/more` }),
        'Invalid redirect URI',
        `The redirect URI "${REDIRECT}/more" is not registered for Partner App.`,
      ],
      [
        'a trailing slash the registered URI lacks',
        () => requestOf(client, { redirect_uri: `${client.redirectUri}/` }),
        'Invalid redirect URI',
        `The redirect URI "${REDIRECT}/" is not registered for Partner App.`,
      ],
      [
        'another case',
        () => requestOf(client, { redirect_uri: client.redirectUri.toUpperCase() }),
        'Invalid redirect URI',
        `The redirect URI "${REDIRECT.toUpperCase()}" is not registered for Partner App.`,
      ],
    ];

    it.each(cases)('%s → 400 error page', async (_, query, title, message) => {
      const res = await page(query());
      expect(res.statusCode).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain(`<h1>${title}</h1>`);
      expect(alertOf(res.body)).toBe(message);
      expect(res.body).not.toContain('<form');
      expect(res.body).not.toContain('<b>');
    });

    it('refuses the login and consent forms of such a request the same way', async () => {
      const query = requestOf(client, { redirect_uri: 'https://attacker.example/callback' });
      for (const path of ['/oauth2/login', '/oauth2/authorize', '/oauth2/logout']) {
        const res = await new UserAgent(app).post(`${path}?${query}`, { csrf: 'x' });
        expect({ path, status: res.statusCode, location: res.headers.location }).toEqual({
          path,
          status: 400,
          location: undefined,
        });
        expect(alertOf(res.body)).toBe(
          'The redirect URI "https://attacker.example/callback" is not registered for Partner App.',
        );
      }
    });
  });

  describe('any other error goes back to the app with error, error_description and state', () => {
    const cases: [string, () => string, string, string, string | undefined][] = [
      [
        'no response_type',
        () => requestOf(client, { response_type: undefined }),
        'invalid_request',
        'The parameter "response_type" is required.',
        'state-1234',
      ],
      [
        'response_type=token',
        () => requestOf(client, { response_type: 'token' }),
        'unsupported_response_type',
        'The response type "token" is not supported: use "code".',
        'state-1234',
      ],
      [
        'no scope',
        () => requestOf(client, { scope: undefined }),
        'invalid_scope',
        'The scope must be "api-v1".',
        'state-1234',
      ],
      [
        'another scope',
        () => requestOf(client, { scope: 'api-v1 admin' }),
        'invalid_scope',
        'The scope must be "api-v1".',
        'state-1234',
      ],
      [
        'a repeated scope',
        () => `${requestOf(client)}&scope=api-v1`,
        'invalid_request',
        'The parameter "scope" is repeated.',
        'state-1234',
      ],
      [
        'a repeated response_type',
        () => `${requestOf(client)}&response_type=code`,
        'invalid_request',
        'The parameter "response_type" is repeated.',
        'state-1234',
      ],
      [
        'a repeated state (none is sent back)',
        () => `${requestOf(client)}&state=other`,
        'invalid_request',
        'The parameter "state" is repeated.',
        undefined,
      ],
      [
        'a code_challenge without method (plain by default)',
        () => requestOf(client, { code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM' }),
        'invalid_request',
        'The code_challenge_method must be "S256".',
        'state-1234',
      ],
      [
        'code_challenge_method=plain',
        () =>
          requestOf(client, {
            code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
            code_challenge_method: 'plain',
          }),
        'invalid_request',
        'The code_challenge_method must be "S256".',
        'state-1234',
      ],
      [
        'a malformed S256 challenge',
        () => requestOf(client, { code_challenge: 'too-short', code_challenge_method: 'S256' }),
        'invalid_request',
        'The code_challenge must be 43 base64url characters (S256).',
        'state-1234',
      ],
      [
        'a method without challenge',
        () => requestOf(client, { code_challenge_method: 'S256' }),
        'invalid_request',
        'The parameter "code_challenge" is required with "code_challenge_method".',
        'state-1234',
      ],
    ];

    it.each(cases)('%s → redirect', async (_, query, error, description, state) => {
      const res = await page(query());
      expect(res.statusCode).toBe(302);
      const expected = new URL(client.redirectUri);
      expected.searchParams.append('error', error);
      expected.searchParams.append('error_description', description);
      if (state !== undefined) expected.searchParams.append('state', state);
      expect(res.headers.location).toBe(expected.toString());
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    });

    it('without state, none is added', async () => {
      const res = await page(requestOf(client, { scope: 'x', state: undefined }));
      expect(res.headers.location).toBe(
        `${client.redirectUri}?error=invalid_scope&error_description=The+scope+must+be+%22api-v1%22.`,
      );
    });
  });

  describe('the login page', () => {
    it('is a plain HTML form with labels, a CSRF token and a sealed session cookie', async () => {
      const res = await page(requestOf(client));
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toMatch(/^<!doctype html>\n<html lang="en">/);
      expect(res.body).toContain('<title>Sign in to connect Partner App</title>');
      expect(res.body).toContain('<h1>Sign in to connect Partner App</h1>');
      expect(res.body).toContain(
        `<form method="post" action="/oauth2/login?${requestOf(client).replace(/&/g, '&amp;')}">`,
      );
      expect(res.body).toContain('<label for="email">E-mail address</label>');
      expect(res.body).toMatch(
        /<input id="email" name="email" type="email" autocomplete="username" required/,
      );
      expect(res.body).toContain('<label for="password">Password</label>');
      expect(res.body).toMatch(
        /<input id="password" name="password" type="password" autocomplete="current-password" required/,
      );
      expect(csrfOf(res.body)).toMatch(/^[0-9a-f]{64}$/);
      // No script, no external asset.
      expect(res.body).not.toMatch(/<script|<link|<img|src=|https?:\/\//);
      expect(res.headers['set-cookie']).toMatch(
        /^oauth_session=v1\.[\w.-]+; Max-Age=3600; Path=\/oauth2; HttpOnly; SameSite=Lax$/,
      );
      // The cookie shows nothing of what it holds.
      expect(String(res.headers['set-cookie'])).not.toContain(csrfOf(res.body));
    });

    it('is sent with headers that keep it out of frames, caches and referrers', async () => {
      const res = await page(requestOf(client));
      expect(res.headers).toMatchObject({
        'content-security-policy': expect.stringMatching(
          /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]{43}='; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/,
        ),
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-store',
      });
    });

    it("escapes the app's name", async () => {
      const evil = await registerClient(app, { name: '<script>alert("x")</script> & Co' });
      const res = await page(requestOf(evil));
      expect(res.body).toContain(
        '<h1>Sign in to connect &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co</h1>',
      );
      expect(res.body).not.toContain('<script>');
    });

    it('keeps one session across visits (no new cookie while it is valid)', async () => {
      const agent = new UserAgent(app);
      const first = await page(requestOf(client), agent);
      const second = await page(requestOf(client), agent);
      expect(second.headers['set-cookie']).toBeUndefined();
      expect(csrfOf(second.body)).toBe(csrfOf(first.body));
    });

    it.each([
      ['a wrong password', () => owner.email, 'not the password'],
      ['an unknown e-mail', () => 'nobody@example.test', 'not the password'],
      ['an empty form', () => '', ''],
    ])('%s → 400, the same message, the e-mail kept', async (_, email, password) => {
      const agent = new UserAgent(app);
      const res = await agent.signIn(requestOf(client), email(), password);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(alertOf(res.body)).toBe(INCORRECT);
      expect(res.body).toContain(
        `value="${email()}" aria-describedby="form-error" aria-invalid="true"`,
      );
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('refuses an account that has no password (never set by the operator)', async () => {
      const { id } = await createAccount(app, { email: `nopass-${Date.now()}@example.test` });
      const email = `nopass-${id}@example.test`;
      const res = await new UserAgent(app).signIn(requestOf(client), email, '');
      expect(res.statusCode).toBe(400);
      expect(alertOf(res.body)).toBe(INCORRECT);
    });

    it('signs in with the e-mail in any case; a new session, then the consent page', async () => {
      const agent = new UserAgent(app);
      const before = await page(requestOf(client), agent);
      const anonymousCookie = agent.cookie;
      const res = await agent.post(`/oauth2/login?${requestOf(client)}`, {
        csrf: csrfOf(before.body),
        email: ` ${owner.email.toUpperCase()} `,
        password: owner.password,
      });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`/oauth2/authorize?${requestOf(client)}`);
      expect(agent.cookie).not.toBe(anonymousCookie);

      const consent = await page(requestOf(client), agent);
      expect(consent.statusCode).toBe(200);
      expect(csrfOf(consent.body)).not.toBe(csrfOf(before.body));
    });

    describe('CSRF: a form must carry the token of its own session', () => {
      it.each([
        ['no token', (csrf: string) => ({ csrf: '', _: csrf })],
        ['a wrong token', () => ({ csrf: 'a'.repeat(64) })],
        ['a token of another length', (csrf: string) => ({ csrf: csrf.slice(1) })],
      ])('%s → 403, a fresh form', async (_, fields) => {
        const agent = new UserAgent(app);
        const csrf = csrfOf((await page(requestOf(client), agent)).body);
        const res = await agent.post(`/oauth2/login?${requestOf(client)}`, {
          ...fields(csrf),
          email: owner.email,
          password: owner.password,
        });
        expect(res.statusCode).toBe(403);
        expect(alertOf(res.body)).toBe(FORM_EXPIRED);
        expect(res.body).toContain(`value="${owner.email}"`);
        expect(sessionCookieOf(res)).toBeDefined();
      });

      it("refuses another session's token (a forged form with the attacker's token)", async () => {
        const attacker = new UserAgent(app);
        const victim = new UserAgent(app);
        const attackerCsrf = csrfOf((await page(requestOf(client), attacker)).body);
        await page(requestOf(client), victim);
        const res = await victim.post(`/oauth2/login?${requestOf(client)}`, {
          csrf: attackerCsrf,
          email: owner.email,
          password: owner.password,
        });
        expect(res.statusCode).toBe(403);
      });

      it('refuses a form without session cookie, or with a tampered one', async () => {
        const agent = new UserAgent(app);
        const csrf = csrfOf((await page(requestOf(client), agent)).body);
        const fields = { csrf, email: owner.email, password: owner.password };
        const tampered = agent.cookie!.replace(/.(?=\.[^.]*$)/, (c) => (c === 'A' ? 'B' : 'A'));
        for (const cookie of [undefined, tampered, 'oauth_session=garbage']) {
          agent.cookie = cookie;
          const res = await agent.post(`/oauth2/login?${requestOf(client)}`, fields);
          expect({ cookie, status: res.statusCode }).toEqual({ cookie, status: 403 });
        }
      });

      it('refuses a form that is not form-encoded', async () => {
        const agent = new UserAgent(app);
        await page(requestOf(client), agent);
        const res = await app.inject({
          method: 'POST',
          url: `/oauth2/login?${requestOf(client)}`,
          headers: { cookie: agent.cookie!, 'content-type': 'application/json' },
          payload: JSON.stringify({ email: owner.email }),
        });
        expect(res.statusCode).toBe(400);
        expect(alertOf(res.body)).toBe(
          'The form must be sent as application/x-www-form-urlencoded.',
        );
      });
    });

    describe('throttling', () => {
      it('refuses the 6th attempt for one e-mail within 15 minutes, even with the right password', async () => {
        const target = await ownerAccount(app);
        for (let attempt = 1; attempt <= 5; attempt++) {
          // From different addresses: the e-mail's own limit applies.
          const res = await new UserAgent(app).signIn(requestOf(client), target.email, 'wrong!!!');
          expect({ attempt, status: res.statusCode }).toEqual({ attempt, status: 400 });
        }
        const res = await new UserAgent(app).signIn(
          requestOf(client),
          target.email,
          target.password,
        );
        expect(res.statusCode).toBe(429);
        expect(alertOf(res.body)).toBe('Too many sign-in attempts. Try again in 15 minutes.');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(890);
        expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(900);
        expect(res.body).toContain(`value="${target.email}"`);
        // Other accounts are not affected.
        const other = await new UserAgent(app).signIn(
          requestOf(client),
          owner.email,
          owner.password,
        );
        expect(other.statusCode).toBe(303);
      });

      it('refuses the 21st attempt from one address within 15 minutes, whatever the e-mail', async () => {
        const agent = new UserAgent(app);
        for (let attempt = 1; attempt <= 20; attempt++) {
          const res = await agent.signIn(requestOf(client), `guess-${attempt}@example.test`, 'x');
          expect({ attempt, status: res.statusCode }).toEqual({ attempt, status: 400 });
        }
        const res = await agent.signIn(requestOf(client), owner.email, owner.password);
        expect(res.statusCode).toBe(429);
        expect(alertOf(res.body)).toBe('Too many sign-in attempts. Try again in 15 minutes.');
        // Another address signs in.
        expect(
          (await new UserAgent(app).signIn(requestOf(client), owner.email, owner.password))
            .statusCode,
        ).toBe(303);
      });
    });
  });

  describe('the consent page', () => {
    it("names the app, the account and what the app may do; its form may go to the app's origin", async () => {
      const agent = new UserAgent(app);
      await agent.signIn(requestOf(client), owner.email, owner.password);
      const res = await page(requestOf(client), agent);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<title>Allow Partner App to access your account?</title>');
      expect(res.body).toContain(
        `<p>You are signed in as <strong>Ada Owner</strong> (${owner.email}).</p>`,
      );
      expect(res.body).toContain('(scope <code>api-v1</code>)');
      expect(res.body).toContain(
        '<button type="submit" name="decision" value="allow">Allow</button>',
      );
      expect(res.body).toContain(
        '<button type="submit" name="decision" value="deny" class="secondary">Deny</button>',
      );
      expect(res.body).toContain('sent back to <code>http://127.0.0.1:9</code>');
      expect(res.body).not.toMatch(/<script|<link|<img|src=/);
      expect(res.headers['content-security-policy']).toMatch(
        /; form-action 'self' http:\/\/127\.0\.0\.1:9; /,
      );
    });

    it('Allow → 303 to the redirect URI with a code and the same state; the code is stored hashed', async () => {
      const agent = new UserAgent(app);
      const res = await agent.consent(requestOf(client), owner, 'allow');
      expect(res.statusCode).toBe(303);
      const location = new URL(String(res.headers.location));
      expect(`${location.origin}${location.pathname}`).toBe(client.redirectUri);
      expect([...location.searchParams.keys()]).toEqual(['code', 'state']);
      expect(location.searchParams.get('state')).toBe('state-1234');
      const code = location.searchParams.get('code')!;
      expect(code).toMatch(/^[0-9a-f]{64}$/);

      const row = await app
        .get(DataSource)
        .getRepository(OAuthCode)
        .findOneByOrFail({ codeHash: app.get(Secrets).hash(code) });
      expect(JSON.stringify(row)).not.toContain(code);
      expect(row).toMatchObject({
        accountId: owner.id,
        redirectUri: client.redirectUri,
        codeChallenge: null,
        consumedAt: null,
      });
      const ttl = row.expiresAt.getTime() - row.createdAt.getTime();
      expect(ttl).toBe(10 * 60 * 1000);
    });

    it('Allow without state → the code alone; a redirect URI with a query keeps it', async () => {
      const withQuery = await registerClient(app, {
        redirectUris: ['http://127.0.0.1:9/cb?tenant=7'],
      });
      const res = await new UserAgent(app).consent(
        requestOf(withQuery, { state: undefined }),
        owner,
      );
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toMatch(
        /^http:\/\/127\.0\.0\.1:9\/cb\?tenant=7&code=[0-9a-f]{64}$/,
      );
    });

    it('keeps the PKCE challenge with the code', async () => {
      const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
      const res = await new UserAgent(app).consent(
        requestOf(client, { code_challenge: challenge, code_challenge_method: 'S256' }),
        owner,
      );
      const code = new URL(String(res.headers.location)).searchParams.get('code')!;
      const row = await app
        .get(DataSource)
        .getRepository(OAuthCode)
        .findOneByOrFail({ codeHash: app.get(Secrets).hash(code) });
      expect(row.codeChallenge).toBe(challenge);
    });

    it('Deny → 303 with error=access_denied and the state; no code is issued', async () => {
      const codes = () =>
        app.get(DataSource).getRepository(OAuthCode).countBy({ accountId: owner.id });
      const before = await codes();
      const res = await new UserAgent(app).consent(requestOf(client), owner, 'deny');
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(
        `${client.redirectUri}?error=access_denied&error_description=The+user+denied+access.&state=state-1234`,
      );
      expect(await codes()).toBe(before);
    });

    it.each([
      ['no decision', {}],
      ['another decision', { decision: 'maybe' }],
    ])('%s → 400, the consent page again', async (_, fields) => {
      const agent = new UserAgent(app);
      await agent.signIn(requestOf(client), owner.email, owner.password);
      const csrf = csrfOf((await page(requestOf(client), agent)).body);
      const res = await agent.post(`/oauth2/authorize?${requestOf(client)}`, { csrf, ...fields });
      expect(res.statusCode).toBe(400);
      expect(alertOf(res.body)).toBe('Choose Allow or Deny.');
      expect(res.headers.location).toBeUndefined();
    });

    it("refuses a consent without the session's CSRF token (403, no code)", async () => {
      const agent = new UserAgent(app);
      await agent.signIn(requestOf(client), owner.email, owner.password);
      const res = await agent.post(`/oauth2/authorize?${requestOf(client)}`, {
        csrf: 'b'.repeat(64),
        decision: 'allow',
      });
      expect(res.statusCode).toBe(403);
      expect(alertOf(res.body)).toBe(FORM_EXPIRED);
      expect(res.headers.location).toBeUndefined();
    });

    it('refuses a consent before sign-in (403, the login page)', async () => {
      const agent = new UserAgent(app);
      const csrf = csrfOf((await page(requestOf(client), agent)).body);
      const res = await agent.post(`/oauth2/authorize?${requestOf(client)}`, {
        csrf,
        decision: 'allow',
      });
      expect(res.statusCode).toBe(403);
      expect(alertOf(res.body)).toBe('Your sign-in has expired. Please sign in again.');
      expect(res.body).toContain('name="password"');
    });

    it('a new password ends the sign-in', async () => {
      const changing = await ownerAccount(app);
      const agent = new UserAgent(app);
      await agent.signIn(requestOf(client), changing.email, changing.password);
      expect((await page(requestOf(client), agent)).body).toContain('name="decision"');
      await app.get(CommandBus).execute(new SetPasswordCommand(changing.id, 'another password'));
      expect((await page(requestOf(client), agent)).body).toContain('name="password"');
    });

    it('"Not you?" signs out: the login page again', async () => {
      const agent = new UserAgent(app);
      await agent.signIn(requestOf(client), owner.email, owner.password);
      const csrf = csrfOf((await page(requestOf(client), agent)).body);
      const res = await agent.post(`/oauth2/logout?${requestOf(client)}`, { csrf });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`/oauth2/authorize?${requestOf(client)}`);
      expect((await page(requestOf(client), agent)).body).toContain('name="password"');
    });
  });

  it('answers a form larger than 16 KiB with 413 (before any page)', async () => {
    const res = await app.inject({
      method: 'POST',
      url: `/oauth2/login?${requestOf(client)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=${'a'.repeat(17 * 1024)}`,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      error: 'invalid_request',
      message: 'The request body is larger than 16384 bytes.',
    });
  });
});
