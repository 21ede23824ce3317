import { Secrets } from '../../common/crypto/secrets';
import { AppConfig } from '../../config/app-config';
import type { Account } from '../accounts';
import { SESSION_TTL_MS, SignInSessions } from './sign-in-session';

const config = (publicUrl: string) =>
  AppConfig.fromEnvironment({ APP_SECRET: 's'.repeat(32), PUBLIC_URL: publicUrl });

describe('SignInSessions', () => {
  const secrets = new Secrets(config('http://localhost:3000'));
  const sessions = new SignInSessions(secrets, config('http://localhost:3000'));
  const account = { id: 7, passwordHash: 'scrypt$16384$8$1$salt$key' } as Account;
  const pair = (setCookie: string) => setCookie.split(';')[0];

  it('round-trips a sealed session through its cookie', () => {
    const session = sessions.signedIn(account);
    const cookie = sessions.cookie(session);
    expect(cookie).toMatch(
      /^oauth_session=v1\.[\w.-]+; Max-Age=3600; Path=\/oauth2; HttpOnly; SameSite=Lax$/,
    );
    expect(cookie).not.toContain(session.csrf);
    expect(sessions.read(`other=1; ${pair(cookie)}`)).toEqual(session);
    expect(sessions.isCurrentFor(session, account)).toBe(true);
  });

  it('is Secure when the public URL is https', () => {
    const secure = new SignInSessions(secrets, config('https://scheduling.example'));
    expect(secure.cookie(secure.anonymous())).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
  });

  it('reads nothing from a missing, tampered, foreign or expired cookie', () => {
    const cookie = pair(sessions.cookie(sessions.anonymous()));
    const flipped = cookie.replace(/.(?=\.[^.]*$)/, (c) => (c === 'A' ? 'B' : 'A'));
    const foreign = new SignInSessions(
      new Secrets(AppConfig.fromEnvironment({ APP_SECRET: 't'.repeat(32) })),
      config('http://localhost:3000'),
    );
    expect(sessions.read(undefined)).toBeNull();
    expect(sessions.read('a=b')).toBeNull();
    expect(sessions.read(flipped)).toBeNull();
    expect(sessions.read(pair(foreign.cookie(foreign.anonymous())))).toBeNull();
    // An API key sealed with the same secret is no session.
    expect(sessions.read(`oauth_session=${secrets.encrypt('{"csrf":"x"}')}`)).toBeNull();

    const expired = { ...sessions.anonymous(), expiresAt: Date.now() - 1 };
    const sealed = secrets.encrypt(JSON.stringify(expired), 'oauth-session');
    expect(sessions.read(`oauth_session=${sealed}`)).toBeNull();
  });

  it('ends with a new password', () => {
    const session = sessions.signedIn(account);
    expect(sessions.isCurrentFor(session, { ...account, passwordHash: 'scrypt$other' })).toBe(
      false,
    );
    expect(sessions.isCurrentFor(session, { ...account, id: 8 })).toBe(false);
  });

  it('matches CSRF tokens exactly', () => {
    const session = sessions.anonymous();
    expect(sessions.csrfMatches(session, session.csrf)).toBe(true);
    expect(sessions.csrfMatches(session, session.csrf.slice(1))).toBe(false);
    expect(sessions.csrfMatches(session, null)).toBe(false);
    expect(sessions.csrfMatches(null, session.csrf)).toBe(false);
    expect(sessions.anonymous().csrf).not.toBe(session.csrf);
    expect(session.expiresAt - Date.now()).toBeLessThanOrEqual(SESSION_TTL_MS);
  });
});
