/**
 * A partner web app, written as its developer would with openid-client (v6, the certified
 * OAuth 2 / OpenID client of the Node.js world), run as a process of its own by the tests: Node's
 * require(esm) loads the ESM-only client, which Jest's CommonJS runtime cannot.
 *
 * - `GET /connect`: a fresh state and PKCE verifier kept in the app's own session (a cookie),
 *   then 302 to our authorization endpoint (built by the library).
 * - `GET /callback`: the library checks the state against the session and exchanges the code
 *   (with the verifier, client authentication as configured), then calls `GET /api/v1/me` with
 *   the access token; the page shows `{callbackUrl, tokenType, accessToken, me}` as JSON in
 *   `<pre id="result">`, or the library's error in `<pre id="error">`.
 *
 * Environment: AUTH_URL (the service's host root), CLIENT_AUTH (`post` or `basic`). It listens on
 * a port the system picks and tells it to the test over IPC (`{listening: port}`; its redirect URI
 * is http://127.0.0.1:<port>/callback); the test registers the client for that redirect URI and
 * answers with `{clientId, clientSecret}`, and the app confirms with `{configured: true}`.
 */
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'openid-client';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const authUrl = env('AUTH_URL');
let base = '';
let redirectUri = '';
let config: oauth.Configuration | undefined;

function configure(clientId: string, secret: string): oauth.Configuration {
  const configuration = new oauth.Configuration(
    {
      issuer: authUrl,
      authorization_endpoint: `${authUrl}/oauth2/authorize`,
      token_endpoint: `${authUrl}/oauth2/token`,
    },
    clientId,
    undefined,
    process.env.CLIENT_AUTH === 'basic'
      ? oauth.ClientSecretBasic(secret)
      : oauth.ClientSecretPost(secret),
  );
  // The service runs on http://127.0.0.1 in the tests.
  oauth.allowInsecureRequests(configuration);
  return configuration;
}

/** The app's sessions: what /connect started, for /callback to check. */
const sessions = new Map<string, { state: string; verifier: string }>();

function sessionOf(req: IncomingMessage): string | undefined {
  return /(?:^|;\s*)partner_session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
}

function page(res: ServerResponse, status: number, id: string, data: unknown): void {
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    `<!doctype html><html lang="en"><title>Partner</title><pre id="${id}">${json}</pre></html>`,
  );
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', base);
  if (!config) return page(res, 503, 'error', { message: 'not configured yet' });
  if (url.pathname === '/connect') {
    const session = randomUUID();
    const verifier = oauth.randomPKCECodeVerifier();
    const state = oauth.randomState();
    sessions.set(session, { state, verifier });
    const authorize = oauth.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'api-v1',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    res.writeHead(302, {
      location: authorize.href,
      'set-cookie': `partner_session=${session}; Path=/; HttpOnly; SameSite=Lax`,
    });
    res.end();
    return;
  }
  if (url.pathname === '/callback') {
    const session = sessions.get(sessionOf(req) ?? '');
    if (!session) return page(res, 400, 'error', { message: 'no session' });
    try {
      const tokens = await oauth.authorizationCodeGrant(config, url, {
        pkceCodeVerifier: session.verifier,
        expectedState: session.state,
      });
      const me = await oauth.fetchProtectedResource(
        config,
        tokens.access_token,
        new URL(`${authUrl}/api/v1/me`),
        'GET',
      );
      page(res, 200, 'result', {
        callbackUrl: url.href,
        state: session.state,
        tokenType: tokens.token_type,
        accessToken: tokens.access_token,
        me: { status: me.status, body: await me.json() },
      });
    } catch (e) {
      const error = e as Error & { code?: string; error?: string; error_description?: string };
      page(res, 400, 'error', {
        name: error.name,
        code: error.code,
        cause: error.cause instanceof Error ? error.cause.message : undefined,
        error: error.error,
        description: error.error_description,
        message: error.message,
      });
    }
    return;
  }
  res.writeHead(404).end();
}

const server = createServer((req, res) => {
  handle(req, res).catch((e: unknown) => {
    res.writeHead(500).end(String(e));
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  redirectUri = `${base}/callback`;
  process.on('message', (client: { clientId: string; clientSecret: string }) => {
    config = configure(client.clientId, client.clientSecret);
    process.send?.({ configured: true });
  });
  process.send?.({ listening: port });
});
