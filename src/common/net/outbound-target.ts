import { isIP } from 'node:net';
import { isSingleLineText } from '../http/text-rules';
import { isPublicAddress } from './target-address';

/** What outbound requests may reach (webhooks and calendar sources each have their own). */
export interface OutboundTargetPolicy {
  /** Ports allowed besides 80 and 443; 'any' when the operator allows every port. */
  extraPorts: number[] | 'any';
  allowPrivateTargets: boolean;
}

export const MAX_TARGET_LENGTH = 2048;

/** The contract's ports: 443 (HTTPS) or 80 (HTTP); a default port counts. */
const CONTRACT_PORTS = [443, 80];

/** Accepted, or refused with the reason, worded to follow `Attribute "target" `. */
export type TargetCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * Whether `target` may be reached, at registration. Host names are not resolved (an address can
 * change later; the delivery side checks the one it connects to); an IP literal is checked now, and
 * `localhost` and `*.localhost` count as loopback.
 */
export function checkOutboundTarget(target: string, policy: OutboundTargetPolicy): TargetCheck {
  const refuse = (reason: string): TargetCheck => ({ ok: false, reason });
  if (target.length > MAX_TARGET_LENGTH)
    return refuse(`must be at most ${MAX_TARGET_LENGTH} characters long.`);
  // The URL parser drops tabs and newlines silently and percent-encodes C1 controls and bidi
  // overrides: what is stored and shown must be what is delivered to.
  if ([...target].some((c) => c <= ' ' || c === '\u007f') || !isSingleLineText(target))
    return refuse('must not contain spaces or control characters.');

  if (!URL.canParse(target)) return refuse('must be an absolute URL.');
  const url = new URL(target);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return refuse('must be an http or https URL.');
  // `http:example.com` and `http:\\example.com` parse too; only the usual spelling is taken.
  const rest = /^https?:\/\/(.*)$/i.exec(target)?.[1];
  if (rest === undefined) return refuse('must be an absolute URL.');
  const authority = rest.split(/[/?#\\]/, 1)[0];
  if (url.username !== '' || url.password !== '' || authority.includes('@'))
    return refuse('must not contain a username or password.');

  const port = portOf(url);
  if (!portAllowed(port, policy))
    return refuse(`must use port ${ports(allowedPorts(policy))}, not ${port}.`);

  if (!policy.allowPrivateTargets && !isPublicHost(url.hostname))
    return refuse(privateTargetReason(url.hostname));
  return { ok: true, url };
}

/** The refusal of a host that is, or resolves to, a non-public address (its own words, shared). */
export function privateTargetReason(hostname: string): string {
  return `must not point to a private, loopback or reserved address (${hostname}).`;
}

/** The port a URL dials: its own, else its scheme's default. */
export function portOf(url: URL): number {
  return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
}

/** Whether the policy lets webhooks go to `port` (at registration and again at send time). */
export function portAllowed(port: number, policy: OutboundTargetPolicy): boolean {
  return policy.extraPorts === 'any' || allowedPorts(policy).includes(port);
}

function allowedPorts(policy: OutboundTargetPolicy): number[] {
  return [
    ...new Set([...CONTRACT_PORTS, ...(policy.extraPorts === 'any' ? [] : policy.extraPorts)]),
  ];
}

/** A URL's hostname (lower-cased by the parser) that is not known to be non-public. */
function isPublicHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return false;
  return isIP(host) === 0 || isPublicAddress(host);
}

/** `443 or 80`, `443, 80 or 8443`. */
function ports(list: number[]): string {
  return list.length === 1
    ? String(list[0])
    : `${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}`;
}

/**
 * The checks that need no DNS, again at send time (the configuration may have changed): an http(s)
 * URL without credentials, on an allowed port, an IP literal public unless private targets are
 * allowed. Errors are short, for the delivery log.
 */
export function checkTargetAtSend(
  target: string,
  policy: OutboundTargetPolicy,
): { url: URL; host: string } | { error: string } {
  if (!URL.canParse(target)) return { error: 'invalid URL' };
  const url = new URL(target);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { error: `scheme ${url.protocol.slice(0, -1)} is not allowed` };
  }
  if (url.username !== '' || url.password !== '') {
    return { error: 'credentials in the URL are not supported' };
  }
  const port = portOf(url);
  if (!portAllowed(port, policy)) return { error: `port ${port} is not allowed` };
  // The WHATWG parser has already normalised the host (lower case, punycode, 0x7f.1 → 127.0.0.1).
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) !== 0 && !policy.allowPrivateTargets && !isPublicAddress(host)) {
    return { error: `address ${host} is not public` };
  }
  return { url, host };
}
