import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { type LookupFunction, isIP } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { type OutboundTargetPolicy, checkTargetAtSend } from './outbound-target';
import { isPublicAddress } from './target-address';

/** A request the policy refuses, or one that could not be made; `message` says which, briefly. */
export class OutboundRequestError extends Error {}

/** A DNS lookup with the shape of `dns.promises.lookup(host, { all: true })`. */
export type LookupAll = (hostname: string, options: { all: true }) => Promise<LookupAddress[]>;

/** A fetch to one origin, over connections pinned to the addresses checked for it. */
export interface PinnedFetch {
  fetch: typeof fetch;
  close(): Promise<void>;
}

/**
 * A `fetch` for the origin of `target` only, after the outbound rules (as webhooks': see
 * WebhookSender): the URL passes checkTargetAtSend, its host name is resolved once, every address
 * must be public unless the policy allows private ones, and every connection goes to one of those
 * addresses (the Agent's lookup answers from them and nothing else), so a name that answers public
 * first and 127.0.0.1 next (DNS rebinding) cannot reach the inside. Requests to another origin are
 * refused, and redirects are not followed (each hop would need its own check): callers follow
 * them with a new PinnedFetch when they want to. `signal` bounds the whole.
 */
export async function pinnedFetch(
  target: string,
  policy: OutboundTargetPolicy,
  signal: AbortSignal,
  lookup: LookupAll = (host, options) => dnsLookup(host, options),
): Promise<PinnedFetch> {
  const checked = checkTargetAtSend(target, policy);
  if ('error' in checked) throw new OutboundRequestError(checked.error);
  const { url, host } = checked;
  let addresses: LookupAddress[] = [];
  if (isIP(host) === 0) {
    try {
      addresses = await lookup(host, { all: true });
    } catch (e) {
      throw new OutboundRequestError(
        `cannot resolve ${host}: ${(e as { code?: string }).code ?? String(e)}`,
      );
    }
    if (addresses.length === 0) throw new OutboundRequestError(`cannot resolve ${host}`);
    const refused = policy.allowPrivateTargets
      ? undefined
      : addresses.find(({ address }) => !isPublicAddress(address));
    if (refused) throw new OutboundRequestError(`address ${refused.address} is not public`);
  }
  const pinned: LookupFunction = (hostname, options, callback) => {
    if (hostname !== host || addresses.length === 0) {
      callback(new Error(`${hostname} is not the checked host`), '', 0);
      return;
    }
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
  const agent = new Agent({ connect: { lookup: pinned } });
  const origin = url.origin;
  const bound = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const requested = new URL(
      typeof input === 'string' || input instanceof URL ? input : input.url,
    );
    if (requested.origin !== origin)
      throw new OutboundRequestError(`${requested.origin} is not the source's origin`);
    // The same object at run time; typed as the global Response, which the DOM lib (pulled in by
    // preact's JSX types, see src/modules/pages) declares apart from undici's.
    return (await undiciFetch(requested, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher: agent,
      redirect: 'manual',
      signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal,
    })) as unknown as Response;
  };
  return { fetch: bound, close: () => agent.destroy() };
}

/**
 * Reads a response's body as text, refusing one larger than `maxBytes` (declared or found larger)
 * without reading the rest.
 */
export async function readLimited(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new OutboundRequestError(`the response is larger than ${maxBytes} bytes`);
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes)
      throw new OutboundRequestError(`the response is larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
