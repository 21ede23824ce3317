import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { TargetRefusedError, TargetUnresolvedError } from './outbound-errors';
import {
  type OutboundTargetPolicy,
  type TargetCheck,
  privateTargetReason,
} from './outbound-target';
import { isPublicAddress } from './target-address';

/** A DNS lookup with the shape of `dns.promises.lookup(host, { all: true })`. */
export type LookupAll = (hostname: string, options: { all: true }) => Promise<LookupAddress[]>;

/** The system's resolver (getaddrinfo: /etc/hosts, then DNS), as connections use it. */
export const systemLookup: LookupAll = (host, options) => dnsLookup(host, options);

/** How long a registration waits for a host name to resolve before taking it unchecked. */
export const REGISTRATION_LOOKUP_MS = 5000;

/**
 * The addresses a connection to the name `host` may use: all it resolves to, each public unless
 * allowed (else TargetRefusedError; none: TargetUnresolvedError). `signal` bounds the wait
 * (getaddrinfo cannot be cancelled, only no longer waited for); its reason is thrown.
 */
export async function resolveTarget(
  host: string,
  policy: OutboundTargetPolicy,
  signal: AbortSignal,
  lookup: LookupAll = systemLookup,
): Promise<LookupAddress[]> {
  let addresses: LookupAddress[];
  try {
    addresses = await untilAborted(lookup(host, { all: true }), signal);
  } catch (e) {
    if (signal.aborted) throw e;
    const code = (e as { code?: unknown }).code;
    throw new TargetUnresolvedError(`cannot resolve ${host}: ${String(code ?? e)}`);
  }
  if (addresses.length === 0) throw new TargetUnresolvedError(`cannot resolve ${host}`);
  const refused = policy.allowPrivateTargets
    ? undefined
    : addresses.find(({ address }) => !isPublicAddress(address));
  if (refused) throw new TargetRefusedError(`address ${refused.address} is not public`);
  return addresses;
}

/**
 * At registration, after checkOutboundTarget: a host name pointing to a non-public address is
 * refused in the words of such a literal. One that does not resolve (in `timeoutMs`) is taken: a
 * resolver's hiccup must not refuse a good URL, and every connection checks the name again.
 */
export async function checkTargetAddresses(
  url: URL,
  policy: OutboundTargetPolicy,
  lookup: LookupAll = systemLookup,
  timeoutMs = REGISTRATION_LOOKUP_MS,
): Promise<TargetCheck> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (policy.allowPrivateTargets || isIP(host) !== 0) return { ok: true, url };
  try {
    await resolveTarget(host, policy, AbortSignal.timeout(timeoutMs), lookup);
  } catch (e) {
    if (e instanceof TargetRefusedError)
      return { ok: false, reason: privateTargetReason(url.hostname) };
  }
  return { ok: true, url };
}

/** `promise`, or the signal's reason if it fires first. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
