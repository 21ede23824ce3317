import { timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { parse, serialize } from 'cookie';
import { Secrets } from '../../common/crypto/secrets';
import { HOUR } from '../../common/time/durations';
import { AppConfig } from '../../config/app-config';
import type { Account } from '../accounts';

export const SESSION_COOKIE = 'oauth_session';
const SESSION_PATH = '/oauth2';
/** A sign-in lasts an hour: enough to consent to an app or two, not a standing login. */
export const SESSION_TTL_MS = HOUR;
/** The AES-GCM context of the cookie: no other value sealed with APP_SECRET opens as a session. */
const SEALED_FOR = 'oauth-session';

/**
 * The browser's session on the authorization pages, all in one cookie sealed with AES-256-GCM under
 * APP_SECRET (the browser can neither read nor forge it), HttpOnly, SameSite=Lax, Path=/oauth2,
 * Secure when PUBLIC_URL is https. No server-side state: any API pod reads it.
 *
 * Every session carries its forms' CSRF token (a form's hidden `csrf` must equal the sealed one),
 * even before sign-in, so that the login form is protected too; signing in issues a new session
 * and token (no fixation).
 */
export interface SignInSession {
  csrf: string;
  /** The account signed in, or null before sign-in. */
  accountId: number | null;
  /** Keyed hash of the account's password hash at sign-in: a new password ends the session. */
  stamp: string | null;
  /** Epoch ms. */
  expiresAt: number;
}

@Injectable()
export class SignInSessions {
  private readonly secure: boolean;

  constructor(
    private readonly secrets: Secrets,
    config: AppConfig,
  ) {
    this.secure = config.http.publicUrl.startsWith('https:');
  }

  /** The request's session, or null when it has none that is valid and current. */
  read(cookieHeader: string | undefined): SignInSession | null {
    if (!cookieHeader) return null;
    const sealed = parse(cookieHeader)[SESSION_COOKIE];
    if (!sealed) return null;
    let session: SignInSession;
    try {
      session = JSON.parse(this.secrets.decrypt(sealed, SEALED_FOR)) as SignInSession;
    } catch {
      return null; // tampered, sealed under another APP_SECRET, or not ours
    }
    return typeof session.expiresAt === 'number' && session.expiresAt > Date.now() ? session : null;
  }

  anonymous(): SignInSession {
    return this.create(null, null);
  }

  signedIn(account: Account): SignInSession {
    return this.create(account.id, this.stampOf(account));
  }

  /** Whether the session was signed in with the account's current password. */
  isCurrentFor(session: SignInSession, account: Account): boolean {
    return session.accountId === account.id && session.stamp === this.stampOf(account);
  }

  /** The form's token against the session's, in constant time. */
  csrfMatches(session: SignInSession | null, given: string | null): boolean {
    if (!session || given === null) return false;
    const a = Buffer.from(session.csrf);
    const b = Buffer.from(given);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** The Set-Cookie value that stores the session. */
  cookie(session: SignInSession): string {
    return serialize(SESSION_COOKIE, this.secrets.encrypt(JSON.stringify(session), SEALED_FOR), {
      path: SESSION_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
      maxAge: Math.ceil((session.expiresAt - Date.now()) / 1000),
    });
  }

  private create(accountId: number | null, stamp: string | null): SignInSession {
    return { csrf: Secrets.generate(32), accountId, stamp, expiresAt: Date.now() + SESSION_TTL_MS };
  }

  private stampOf(account: Account): string {
    return this.secrets.hash(account.passwordHash ?? '').slice(0, 32);
  }
}
