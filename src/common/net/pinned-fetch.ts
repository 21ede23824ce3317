import type { LookupAddress } from 'node:dns';
import { type LookupFunction, isIP } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { TargetRefusedError } from './outbound-errors';
import { type OutboundTargetPolicy, checkTargetAtSend } from './outbound-target';
import { type LookupAll, resolveTarget, systemLookup } from './target-resolution';

/** A fetch to one origin, over connections pinned to the addresses checked for it. */
export interface PinnedFetch {
  fetch: typeof fetch;
  close(): Promise<void>;
}

/**
 * A `fetch` for the origin of `target` only: the URL passes checkTargetAtSend, its host name is
 * resolved once (resolveTarget: public addresses unless allowed), and every connection goes to one
 * of those addresses, so DNS rebinding cannot reach the inside. Another origin is refused, and
 * redirects are not followed (each hop needs its own check). `signal` bounds the whole; bodies are
 * the caller's to bound (bounded-body.ts).
 */
export async function pinnedFetch(
  target: string,
  policy: OutboundTargetPolicy,
  signal: AbortSignal,
  lookup: LookupAll = systemLookup,
): Promise<PinnedFetch> {
  const checked = checkTargetAtSend(target, policy);
  if ('error' in checked) throw new TargetRefusedError(checked.error);
  const { url, host } = checked;
  const addresses: LookupAddress[] =
    isIP(host) === 0 ? await resolveTarget(host, policy, signal, lookup) : [];
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
      throw new TargetRefusedError(`${requested.origin} is not the source's origin`);
    // The same object at run time, typed as the DOM lib's Response (preact's JSX types pull it in).
    return (await undiciFetch(requested, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher: agent,
      redirect: 'manual',
      signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal,
    })) as unknown as Response;
  };
  return { fetch: bound, close: () => agent.destroy() };
}
