import { InvalidAttributeError } from '../../common/errors/domain-error';

const MAX_LENGTH = 2048;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** `why` completes the sentence: `must be an absolute URL`. */
function refuse(uri: string, why: string): never {
  throw new InvalidAttributeError('invalid_redirect_uri', `The redirect URI "${uri}" ${why}.`);
}

/**
 * A redirect URI an operator registers: an absolute http(s) URL without fragment, credentials,
 * spaces or control characters, at most 2048 characters. Stored as given: requests must send the
 * same string (RFC 6749 §3.1.2, Security BCP §4.1: no prefix or pattern matching).
 */
export function assertRedirectUri(uri: string): string {
  if (uri.length === 0 || uri.length > MAX_LENGTH)
    refuse(uri, `must be 1 to ${MAX_LENGTH} characters long`);
  // eslint-disable-next-line no-control-regex
  if (/[\s\x00-\x1f\x7f]/.test(uri)) refuse(uri, 'must not contain spaces or control characters');
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    refuse(uri, 'must be an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    refuse(uri, 'must be an http or https URL');
  if (uri.includes('#')) refuse(uri, 'must not contain a fragment');
  if (url.username !== '' || url.password !== '')
    refuse(uri, 'must not contain a user name or password');
  return uri;
}

/** Whether codes sent to this URI cross the network in clear (http to a host that is not local). */
export function isInsecureRedirectUri(uri: string): boolean {
  const url = new URL(uri);
  return url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname);
}

/** The origin a browser is sent to (`form-action` of the consent page must allow it). */
export function originOf(uri: string): string {
  return new URL(uri).origin;
}
