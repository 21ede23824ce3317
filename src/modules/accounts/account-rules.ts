import { isEmail } from 'class-validator';
import { isValidTimezone } from '../../common/time/zones';
import {
  InvalidEmailError,
  InvalidEmbedOriginError,
  InvalidNameError,
  InvalidPasswordError,
  InvalidTimezoneError,
} from './accounts.errors';

export const DEFAULT_ACCOUNT_TIMEZONE = 'UTC';
export const MIN_PASSWORD_LENGTH = 8;
const MAX_PASSWORD_LENGTH = 1024;

export function assertEmail(email: string): string {
  const trimmed = email.trim();
  if (!isEmail(trimmed) || trimmed.length > 254) throw new InvalidEmailError();
  return trimmed.toLowerCase();
}

/**
 * A site that may frame the client pages (CSP `frame-ancestors`): an https origin (http for
 * localhost only), no path, query or wildcard; returned as the URL parser serialises it.
 */
export function assertEmbedOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new InvalidEmbedOriginError(origin);
  }
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1';
  const scheme = url.protocol === 'https:' || (url.protocol === 'http:' && local);
  const bare = url.username === '' && url.password === '' && url.search === '' && url.hash === '';
  // Only what a host name can hold: the origin goes into a header (no `;`, `*`, space or quote).
  const host = /^[a-z0-9.-]+$/.test(url.hostname);
  if (!scheme || !bare || !host || url.href !== `${url.origin}/`)
    throw new InvalidEmbedOriginError(origin);
  return url.origin;
}

export function assertName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 255) throw new InvalidNameError();
  return trimmed;
}

/** IANA zone names by their lower case: zones are matched regardless of case, stored as named. */
const ZONE_NAMES = new Map(
  [...Intl.supportedValuesOf('timeZone'), 'UTC'].map((zone) => [zone.toLowerCase(), zone]),
);

/** The zone as IANA spells it (`america/new_york` → `America/New_York`; a link stays as given). */
export function assertTimezone(timezone: string): string {
  if (!isValidTimezone(timezone)) throw new InvalidTimezoneError(timezone);
  return ZONE_NAMES.get(timezone.toLowerCase()) ?? timezone;
}

export function assertPassword(password: string): string {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH)
    throw new InvalidPasswordError(MIN_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH);
  return password;
}
