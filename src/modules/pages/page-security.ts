import {
  type KeyObject,
  createHmac,
  createSecretKey,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { parse, serialize } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config';
import { BoundedMap } from '../../common/cache/bounded-map';

/** The cookie of the pages' CSRF defence (see PageCsrf). */
const CSRF_COOKIE = 'pages_csrf';
const NONCE = /^[A-Za-z0-9_-]{22}$/;

const policy = (frameAncestors: string, imageOrigin?: string | null) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    imageOrigin ? `img-src 'self' ${imageOrigin}` : "img-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');

/**
 * The headers of every client page, written once: its own stylesheet and script only (no inline
 * code, no third party), forms posted only here, framed by no site, never indexed, never cached,
 * never sent on as a referrer (the confirmation page's URL is its key).
 */
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': policy("'none'"),
  'x-robots-tag': 'noindex, nofollow',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/**
 * How a page is sent: the sites the account lets frame it, the origin of its logo (the only other
 * origin an image may come from: `https://host[:port]`, checked by the settings), the CSRF cookie.
 */
export interface PageOptions {
  frameAncestors?: readonly string[];
  imageOrigin?: string | null;
  cookie?: string;
}

/** A page: its HTML with the pages' headers (framing as the account allows it). */
export function sendPage(
  reply: FastifyReply,
  status: number,
  html: string,
  options: PageOptions = {},
): void {
  applyHeaders(reply, options);
  // Encoded once here: a string would be measured (Content-Length) and then encoded again.
  void reply.code(status).type('text/html; charset=utf-8').send(Buffer.from(html));
}

/** 303 See Other after a form's POST (the browser then GETs the target: PRG). */
export function sendRedirect(reply: FastifyReply, location: string, options: PageOptions = {}) {
  applyHeaders(reply, options);
  void reply.code(303).header('location', location).send();
}

function applyHeaders(
  reply: FastifyReply,
  { frameAncestors = [], imageOrigin, cookie }: PageOptions,
): void {
  void reply.headers(PAGE_HEADERS);
  if (frameAncestors.length > 0 || imageOrigin) {
    const ancestors = frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'";
    void reply.header('content-security-policy', policy(ancestors, imageOrigin));
  }
  // The API's `X-Frame-Options: DENY` would forbid what frame-ancestors allows.
  if (frameAncestors.length > 0) reply.removeHeader('x-frame-options');
  if (cookie) void reply.header('set-cookie', cookie);
}

/**
 * CSRF defence of the pages' forms: a signed double-submit cookie (OWASP). The browser holds a
 * random nonce in an HttpOnly cookie; each form carries HMAC(APP_SECRET, scope + nonce), its scope
 * being what the form acts on (an account's scheduling page, one appointment). A POST is accepted
 * only with the cookie and the form's token for that scope, and never from a cross-site page
 * (`Sec-Fetch-Site: cross-site`). Over https the cookie is `SameSite=None; Secure; Partitioned`,
 * so that the forms work inside an embedding site's iframe (its own partition, CHIPS); over http
 * (a developer's machine) it is `SameSite=Lax`.
 */
@Injectable()
export class PageCsrf {
  /** The secret as a KeyObject, made once (a string key is imported again by every createHmac). */
  private readonly secret: KeyObject;
  private readonly https: boolean;

  constructor(config: AppConfig) {
    this.secret = createSecretKey(Buffer.from(config.secret, 'utf8'));
    this.https = config.http.publicUrl.startsWith('https:');
  }

  /** The nonce of the request's cookie, or a new one with the Set-Cookie that gives it. */
  nonceOf(req: FastifyRequest): { nonce: string; cookie?: string } {
    const existing = this.cookieNonce(req);
    if (existing) return { nonce: existing };
    const nonce = randomBytes(16).toString('base64url');
    const cookie = serialize(CSRF_COOKIE, nonce, {
      httpOnly: true,
      path: '/',
      ...(this.https ? { secure: true, sameSite: 'none', partitioned: true } : { sameSite: 'lax' }),
    });
    return { nonce, cookie };
  }

  /** Tokens made, by scope and nonce: a client's script asks for one day's times after another. */
  private readonly tokens = new BoundedMap<string, string>(10_000);

  token(nonce: string, scope: string): string {
    const message = `pages-csrf:${scope}:${nonce}`;
    let token = this.tokens.get(message);
    if (token === undefined) {
      token = createHmac('sha256', this.secret).update(message).digest('base64url');
      this.tokens.set(message, token);
    }
    return token;
  }

  /** Whether a POST carries the cookie and the token of `scope`, and comes from no other site. */
  verify(req: FastifyRequest, form: URLSearchParams, scope: string): boolean {
    if (req.headers['sec-fetch-site'] === 'cross-site') return false;
    const nonce = this.cookieNonce(req);
    const given = form.getAll('csrf');
    if (!nonce || given.length !== 1) return false;
    const expected = Buffer.from(this.token(nonce, scope));
    const actual = Buffer.from(given[0]);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }

  /** The page session a request belongs to: its cookie's nonce, when it has one. */
  sessionOf(req: FastifyRequest): string | undefined {
    return this.cookieNonce(req);
  }

  private cookieNonce(req: FastifyRequest): string | undefined {
    const header = req.headers.cookie;
    if (!header) return undefined;
    const value = parse(header)[CSRF_COOKIE];
    return value !== undefined && NONCE.test(value) ? value : undefined;
  }
}
