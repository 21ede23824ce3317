import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { startApi } from '../support/test-app';
import { type OwnerAccount, csrfOf, form, ownerAccount } from './oauth-fixtures';
import { type Partner, listen, shownBy, startPartner } from './partner';

/**
 * A person's browser over real HTTP, reduced to what the flow needs: it follows nothing by itself
 * (each hop is checked) and keeps cookies by name (the service and the partner app share the host
 * 127.0.0.1, as a browser would share them across its ports).
 */
class Browser {
  private readonly cookies = new Map<string, string>();

  async get(url: string): Promise<Response> {
    return this.keep(await fetch(url, { redirect: 'manual', headers: this.headers() }));
  }

  async post(url: string, fields: Record<string, string>): Promise<Response> {
    return this.keep(
      await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...this.headers(), 'content-type': 'application/x-www-form-urlencoded' },
        body: form(fields),
      }),
    );
  }

  private headers(): Record<string, string> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    return cookie ? { cookie } : {};
  }

  private keep(res: Response): Response {
    for (const header of res.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return res;
  }
}

/** The whole flow driven by openid-client in the partner app; the test is the person. */
describe.each(['post', 'basic'] as const)(
  'OAuth 2.0 driven by openid-client (client_secret_%s) (e2e)',
  (clientAuth) => {
    let app: NestFastifyApplication;
    let authUrl: string;
    let partner: Partner;
    let owner: OwnerAccount;

    beforeAll(async () => {
      app = await startApi();
      authUrl = await listen(app);
      partner = await startPartner(app, authUrl, clientAuth);
    }, 60_000); // the partner app is a process of its own, started under ts-node
    afterAll(async () => {
      await partner?.stop();
      await app.close();
    });
    beforeEach(async () => {
      owner = await ownerAccount(app);
    });

    /** From the app's "connect" to the redirect back to it, as the person; answers that URL. */
    async function connect(browser: Browser, decision: 'allow' | 'deny'): Promise<string> {
      const connectRes = await browser.get(partner.url('/connect'));
      expect(connectRes.status).toBe(302);
      const authorizeUrl = connectRes.headers.get('location')!;
      expect(authorizeUrl.startsWith(`${authUrl}/oauth2/authorize?`)).toBe(true);
      const request = new URL(authorizeUrl).searchParams;
      expect(Object.fromEntries(request)).toEqual({
        client_id: partner.client.clientId,
        redirect_uri: partner.client.redirectUri,
        scope: 'api-v1',
        state: expect.any(String),
        code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        code_challenge_method: 'S256',
        response_type: 'code',
      });

      const login = await browser.get(authorizeUrl);
      expect(login.status).toBe(200);
      const query = authorizeUrl.slice(authorizeUrl.indexOf('?') + 1);
      const signedIn = await browser.post(`${authUrl}/oauth2/login?${query}`, {
        csrf: csrfOf(await login.text()),
        email: owner.email,
        password: owner.password,
      });
      expect(signedIn.status).toBe(303);
      const consent = await browser.get(`${authUrl}${signedIn.headers.get('location')!}`);
      expect(consent.status).toBe(200);
      const answered = await browser.post(`${authUrl}/oauth2/authorize?${query}`, {
        csrf: csrfOf(await consent.text()),
        decision,
      });
      expect(answered.status).toBe(303);
      return answered.headers.get('location')!;
    }

    it('connects: the library checks the state, exchanges the code with PKCE, calls GET /api/v1/me', async () => {
      const browser = new Browser();
      const callback = await connect(browser, 'allow');
      expect(callback.startsWith(`${partner.client.redirectUri}?code=`)).toBe(true);

      const res = await browser.get(callback);
      const shown = shownBy(await res.text());
      expect(shown).toEqual({
        id: 'result',
        data: {
          callbackUrl: callback,
          state: new URL(callback).searchParams.get('state'),
          tokenType: 'bearer', // openid-client normalises the type's case
          accessToken: expect.stringMatching(/^[0-9a-f]{64}$/),
          me: {
            status: 200,
            body: expect.objectContaining({ id: owner.id, email: owner.email, name: owner.name }),
          },
        },
      });

      // The app disconnects: the token stops working.
      const disconnected = await fetch(`${authUrl}/oauth2/disconnect`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form({
          access_token: shown.data.accessToken as string,
          client_id: partner.client.clientId,
          client_secret: partner.client.clientSecret,
        }),
      });
      expect(disconnected.status).toBe(200);
      const me = await fetch(`${authUrl}/api/v1/me`, {
        headers: { authorization: `Bearer ${shown.data.accessToken as string}` },
      });
      expect(me.status).toBe(401);
    });

    it('a denial reaches the library as access_denied', async () => {
      const browser = new Browser();
      const callback = await connect(browser, 'deny');
      const res = await browser.get(callback);
      expect(shownBy(await res.text())).toEqual({
        id: 'error',
        data: expect.objectContaining({
          name: 'AuthorizationResponseError',
          error: 'access_denied',
          description: 'The user denied access.',
        }),
      });
    });

    it('the library refuses a code replayed in another session (the state does not match)', async () => {
      const browser = new Browser();
      const callback = await connect(browser, 'allow');
      const eavesdropper = new Browser();
      await eavesdropper.get(partner.url('/connect')); // a session of its own, another state
      const res = await eavesdropper.get(callback);
      expect(shownBy(await res.text())).toEqual({
        id: 'error',
        data: expect.objectContaining({
          code: 'OAUTH_INVALID_RESPONSE',
          cause: 'unexpected "state" response parameter value',
        }),
      });
      // The person's own callback still completes.
      expect(shownBy(await (await browser.get(callback)).text()).id).toBe('result');
    });
  },
);
