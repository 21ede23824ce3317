import { isEmail } from 'class-validator';
import { HEX_COLOR, MIN_TEXT_CONTRAST, contrastRatio } from '../../common/color/contrast';
import { AttributeTooLongError } from '../../common/http/http.errors';
import { LANGUAGES, type Language, isLanguage } from '../../common/i18n/languages';
import { isValidTimezone } from '../../common/time/zones';
import {
  InvalidEmailError,
  InvalidEmbedOriginError,
  InvalidLanguageError,
  InvalidLogoUrlError,
  InvalidNameError,
  InvalidPasswordError,
  InvalidTimezoneError,
  LowContrastAccentColorError,
  MalformedAccentColorError,
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

/** The language of the client pages, e-mails and SMS: one of LANGUAGES, exactly. */
export function assertLanguage(language: string): Language {
  if (!isLanguage(language)) throw new InvalidLanguageError(language, LANGUAGES);
  return language;
}

/**
 * The pages' accent colour, lower case: they write white text on it and use it for links on white,
 * so it must have the contrast WCAG AA asks of text against white (refused with the ratio rounded
 * down, so that a refusal never reads as the minimum).
 */
export function assertAccentColor(color: string): string {
  if (!HEX_COLOR.test(color)) throw new MalformedAccentColorError(color);
  const lower = color.toLowerCase();
  const ratio = contrastRatio(lower, '#ffffff');
  if (ratio < MIN_TEXT_CONTRAST) {
    const shown = (Math.floor(ratio * 10 + 1e-9) / 10).toFixed(1);
    throw new LowContrastAccentColorError(color, shown, MIN_TEXT_CONTRAST);
  }
  return lower;
}

export const MAX_LOGO_URL_LENGTH = 2048;

/** White space, controls and format characters (bidi): the URL parser drops some without a word. */
const UNSEEN = /[\s\p{Cc}\p{Cf}]/u;

/**
 * `url` parsed, if it may be a logo: https, no credentials, a host name of letters, digits, dots
 * and hyphens only. Its origin goes into the pages' CSP `img-src`, where the URL parser would let
 * `;` or `'` of a host through to start another directive.
 */
function parseLogoUrl(url: string): URL | null {
  if (url.length > MAX_LOGO_URL_LENGTH || UNSEEN.test(url)) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const bare = parsed.username === '' && parsed.password === '';
  const host = /^[a-z0-9.-]+$/.test(parsed.hostname);
  return parsed.protocol === 'https:' && bare && host ? parsed : null;
}

/** A logo's URL as the URL parser writes it (`https://Shop.example` → `https://shop.example/`). */
export function assertLogoUrl(url: string): string {
  if (url.length > MAX_LOGO_URL_LENGTH)
    throw new AttributeTooLongError('logoUrl', MAX_LOGO_URL_LENGTH);
  const parsed = parseLogoUrl(url);
  if (!parsed) throw new InvalidLogoUrlError(url);
  return parsed.href;
}

/**
 * The origin of a logo's URL (`https://host[:port]`), for the pages' CSP `img-src`; null for none,
 * and for a URL that is no logo's (checked again: a header is no place to trust a stored value).
 */
export function logoOriginOf(url: string | null): string | null {
  return url === null ? null : (parseLogoUrl(url)?.origin ?? null);
}
