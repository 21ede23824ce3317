import { randomBytes, randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { InjectOptions, LightMyRequestResponse as InjectResponse } from 'fastify';
import { SetPasswordCommand } from '../../src/modules/accounts/account.commands';
import {
  CreateOAuthClientCommand,
  type OAuthClientCredentials,
} from '../../src/modules/oauth/oauth-client.commands';
import { type TestAccount, createAccount } from '../support/test-app';

export const PASSWORD = 'correct horse battery staple';

export interface TestClient extends OAuthClientCredentials {
  name: string;
  redirectUri: string;
}

export interface OwnerAccount extends TestAccount {
  email: string;
  name: string;
  password: string;
}

/** A partner app registered as the operator CLI does (the CLI itself: clients.e2e-spec.ts). */
export async function registerClient(
  app: NestFastifyApplication,
  options: { name?: string; redirectUris?: string[] } = {},
): Promise<TestClient> {
  const redirectUris = options.redirectUris ?? [`http://127.0.0.1:9/callback/${randomUUID()}`];
  const name = options.name ?? 'Partner App';
  const credentials = await app
    .get(CommandBus)
    .execute(new CreateOAuthClientCommand(name, redirectUris));
  return { ...credentials, name, redirectUri: redirectUris[0] };
}

/** A fresh account whose owner can sign in on the authorization page. */
export async function ownerAccount(
  app: NestFastifyApplication,
  password = PASSWORD,
): Promise<OwnerAccount> {
  const email = `owner-${randomUUID()}@example.test`;
  const name = 'Ada Owner';
  const account = await createAccount(app, { email, name });
  await app.get(CommandBus).execute(new SetPasswordCommand(account.id, password));
  return { ...account, email, name, password };
}

/** The authorize endpoint's query, parameters in the order given (undefined ones left out). */
export function authorizeQuery(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) query.append(name, value);
  return query.toString();
}

/** A well-formed authorization request of this client. */
export function requestOf(
  client: TestClient,
  extra: Record<string, string | undefined> = {},
): string {
  return authorizeQuery({
    response_type: 'code',
    scope: 'api-v1',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    state: 'state-1234',
    ...extra,
  });
}

export function csrfOf(html: string): string {
  const match = /name="csrf" value="([0-9a-f]+)"/.exec(html);
  if (!match) throw new Error(`no CSRF field in:\n${html}`);
  return match[1];
}

/** The `oauth_session=…` pair of a response's Set-Cookie, or undefined. */
export function sessionCookieOf(res: InjectResponse): string | undefined {
  const header = res.headers['set-cookie'];
  const cookies = Array.isArray(header) ? header : header === undefined ? [] : [String(header)];
  return cookies.find((c) => c.startsWith('oauth_session='))?.split(';')[0];
}

export function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** A random IP address for a test's requests: sign-in is throttled per address. */
export function randomAddress(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${c}`;
}

/**
 * A person's browser on the authorization pages, answered in-process: it keeps the session
 * cookie, and every request comes from its own address.
 */
export class UserAgent {
  cookie: string | undefined;

  constructor(
    private readonly app: NestFastifyApplication,
    readonly address = randomAddress(),
  ) {}

  async get(url: string): Promise<InjectResponse> {
    return this.keep(
      await this.app.inject({
        method: 'GET',
        url,
        headers: this.headers(),
        remoteAddress: this.address,
      }),
    );
  }

  async post(url: string, fields: Record<string, string>): Promise<InjectResponse> {
    const options: InjectOptions = {
      method: 'POST',
      url,
      headers: { ...this.headers(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: form(fields),
      remoteAddress: this.address,
    };
    return this.keep(await this.app.inject(options));
  }

  /** Signs in on the login page of this authorization request; answers the login POST. */
  async signIn(query: string, email: string, password: string): Promise<InjectResponse> {
    const page = await this.get(`/oauth2/authorize?${query}`);
    if (page.statusCode !== 200) throw new Error(`authorize → ${page.statusCode}: ${page.body}`);
    return this.post(`/oauth2/login?${query}`, { csrf: csrfOf(page.body), email, password });
  }

  /** Signs in (unless signed in already) and answers the consent page with `decision`. */
  async consent(
    query: string,
    owner: { email: string; password: string },
    decision: 'allow' | 'deny' = 'allow',
  ): Promise<InjectResponse> {
    let page = await this.get(`/oauth2/authorize?${query}`);
    if (page.body.includes('name="password"')) {
      const signedIn = await this.post(`/oauth2/login?${query}`, {
        csrf: csrfOf(page.body),
        email: owner.email,
        password: owner.password,
      });
      if (signedIn.statusCode !== 303)
        throw new Error(`login → ${signedIn.statusCode}: ${signedIn.body}`);
      page = await this.get(`/oauth2/authorize?${query}`);
    }
    if (page.statusCode !== 200) throw new Error(`consent page → ${page.statusCode}: ${page.body}`);
    return this.post(`/oauth2/authorize?${query}`, { csrf: csrfOf(page.body), decision });
  }

  private headers(): Record<string, string> {
    return this.cookie ? { cookie: this.cookie } : {};
  }

  private keep(res: InjectResponse): InjectResponse {
    this.cookie = sessionCookieOf(res) ?? this.cookie;
    return res;
  }
}

/** Runs the user's side of the flow; answers the code the app receives. */
export async function authorizationCode(
  app: NestFastifyApplication,
  client: TestClient,
  owner: { email: string; password: string },
  extra: Record<string, string | undefined> = {},
): Promise<string> {
  const res = await new UserAgent(app).consent(requestOf(client, extra), owner);
  const code = new URL(String(res.headers.location)).searchParams.get('code');
  if (res.statusCode !== 303 || !code)
    throw new Error(`consent → ${res.statusCode} ${String(res.headers.location)}`);
  return code;
}

/** `POST /oauth2/token` with these form fields (and headers). */
export function tokenRequest(
  app: NestFastifyApplication,
  fields: Record<string, string> | string,
  headers: Record<string, string> = {},
): Promise<InjectResponse> {
  return app.inject({
    method: 'POST',
    url: '/oauth2/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: typeof fields === 'string' ? fields : form(fields),
  });
}

/** The token request of a code, client_secret_post. */
export function exchangeFields(
  client: TestClient,
  code: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    grant_type: 'authorization_code',
    code,
    redirect_uri: client.redirectUri,
    client_id: client.clientId,
    client_secret: client.clientSecret,
    ...extra,
  };
}

/** RFC 6749 §2.3.1 Basic credentials (each half form-urlencoded). */
export function clientBasic(id: string, secret: string): string {
  const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
}

/** An access token for the owner's account, through the whole flow. */
export async function accessToken(
  app: NestFastifyApplication,
  client: TestClient,
  owner: { email: string; password: string },
): Promise<string> {
  const code = await authorizationCode(app, client, owner);
  const res = await tokenRequest(app, exchangeFields(client, code));
  if (res.statusCode !== 200) throw new Error(`token → ${res.statusCode} ${res.body}`);
  return res.json<{ access_token: string }>().access_token;
}

export function bearer(token: string): string {
  return `Bearer ${token}`;
}

/** The challenge of a failed client authentication at the token and disconnect endpoints. */
export const CLIENT_CHALLENGE = 'Basic realm="oauth2", charset="UTF-8"';
