import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { type FactoryProvider, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Agent, type Dispatcher, request } from 'undici';
import { AppConfig } from '../../config/app-config';
import { isPublicAddress } from '../../common/net/target-address';
import { type OutboundTargetPolicy, checkTargetAtSend } from '../../common/net/outbound-target';
import { type LookupAll, systemLookup, untilAborted } from '../../common/net/target-resolution';

/** What one delivery attempt came to, for the job that retries or gives up. */
export interface SendOutcome {
  /** 'retry' only after HTTP 500 or a network error (spec, Events › Retries). */
  kind: 'delivered' | 'retry' | 'failed';
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The time limit the attempt hit (its receiver is then slow, see WebhookFairness). */
  timeout?: SendTimeout;
}

/** Connecting (name and connection), the response's headers, or the whole attempt. */
export type SendTimeout = 'connect' | 'headers' | 'total';

/** Where webhooks may go: the part of the configuration the sender enforces. */
export type SenderPolicy = OutboundTargetPolicy;

export type { LookupAll } from '../../common/net/target-resolution';

export interface WebhookSenderOptions {
  /** Whole attempt, DNS to the end of the response (default 10 s). */
  timeoutMs?: number;
  /** Resolving the host name, and connecting (TCP, TLS), each (default 3 s). */
  connectTimeoutMs?: number;
  /** From the request sent to the response's headers: the receiver's first byte (default 5 s). */
  headersTimeoutMs?: number;
  /** Response bytes read before the response is dropped (default 4096). */
  maxResponseBytes?: number;
  /** Open connections per receiver origin; more deliveries wait for one (default 128). */
  connectionsPerOrigin?: number;
  /** Resolves target host names (default `dns.promises.lookup`); tests give their own. */
  lookup?: LookupAll;
  /** Certificates to trust instead of the system roots (tests, private PKI). */
  ca?: string | string[];
}

export const WEBHOOK_USER_AGENT = 'scheduling-service-webhooks/1.0';

/** Headers the sender owns: a caller cannot change the framing, the type or the host. */
const OWN_HEADERS = new Set(['host', 'content-length', 'content-type', 'user-agent']);

/** undici's timeouts, by the limit each is (a body read too slowly is bounded by the whole). */
const TIMEOUTS = new Map<string, SendTimeout>([
  ['UND_ERR_CONNECT_TIMEOUT', 'connect'],
  ['UND_ERR_HEADERS_TIMEOUT', 'headers'],
  ['UND_ERR_BODY_TIMEOUT', 'total'],
]);

/** Our request was wrong (a header value with a line break…): sending it again cannot help. */
const REQUEST_ERRORS = new Set([
  'UND_ERR_INVALID_ARG',
  'UND_ERR_NOT_SUPPORTED',
  'ERR_INVALID_ARG_TYPE',
  'ERR_INVALID_ARG_VALUE',
  'ERR_INVALID_CHAR',
  'ERR_INVALID_HTTP_TOKEN',
]);

/**
 * Sends one webhook attempt and says whether it was delivered, should be retried or has failed.
 *
 * Targets are checked at send time, as DNS answers change after registration: the host name is
 * resolved once, every address must be public (unless the operator allows private targets), and
 * the connection goes to those addresses only, never after a second lookup, so a name that answers
 * public first and 127.0.0.1 next (DNS rebinding) cannot reach the inside.
 *
 * The pinning: one keep-alive Agent serves every receiver (a pool per origin). Its `connect.lookup`
 * does no DNS: it answers from `pins`, the addresses checked by the sends in flight for that host,
 * and fails when there are none. A connection is only opened for a queued request, whose addresses
 * stay pinned until it settles, so every socket goes to a checked address. A kept-alive socket may
 * carry a later send to the same host: still to a checked address (whether an IP is public does
 * not change), as with any keep-alive client. An Agent per (host, address) would keep the same
 * property with many more pools to evict.
 *
 * Connecting (3 s) and the response's headers (5 s) each have a limit shorter than the attempt's
 * (10 s), so that a receiver unreachable or silent does not hold a delivery slot that long; an
 * attempt that hits a limit says which (`timeout`), making its receiver slow (WebhookFairness).
 *
 * Nest cannot build it from types: provide it with `webhookSenderProvider` (or `fromConfig`).
 */
@Injectable()
export class WebhookSender implements OnApplicationShutdown {
  private readonly timeoutMs: number;
  /** This and headersTimeoutMs are 0 when not shorter than timeoutMs, which then applies alone. */
  private readonly connectTimeoutMs: number;
  private readonly headersTimeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly lookup: LookupAll;
  private readonly agent: Agent;
  /** Host name → checked address → its family and how many sends in flight pinned it. */
  private readonly pins = new Map<string, Map<string, { family: number; sends: number }>>();
  private closed = false;

  constructor(
    private readonly policy: SenderPolicy,
    options: WebhookSenderOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxResponseBytes = options.maxResponseBytes ?? 4096;
    if (!(this.timeoutMs > 0) || !(this.maxResponseBytes >= 1)) {
      throw new Error('WebhookSender needs timeoutMs > 0 and maxResponseBytes >= 1');
    }
    const phase = (ms: number) => (ms > 0 && ms < this.timeoutMs ? ms : 0);
    this.connectTimeoutMs = phase(options.connectTimeoutMs ?? 3000);
    this.headersTimeoutMs = phase(options.headersTimeoutMs ?? 5000);
    this.lookup = options.lookup ?? systemLookup;
    this.agent = new Agent({
      connections: options.connectionsPerOrigin ?? 128,
      // 0 turns undici's limit off: the whole attempt's (the deadline below) applies.
      headersTimeout: this.headersTimeoutMs,
      bodyTimeout: this.timeoutMs,
      connect: {
        timeout: this.connectTimeoutMs,
        lookup: this.pinnedLookup,
        ...(options.ca === undefined ? {} : { ca: options.ca }),
      },
    });
  }

  static fromConfig(config: AppConfig, options: WebhookSenderOptions = {}): WebhookSender {
    const { extraPorts, allowPrivateTargets, timeouts } = config.webhooks;
    return new WebhookSender(
      { extraPorts, allowPrivateTargets },
      {
        timeoutMs: timeouts.totalMs,
        connectTimeoutMs: timeouts.connectMs,
        headersTimeoutMs: timeouts.headersMs,
        ...options,
      },
    );
  }

  /** POSTs `body` (form-encoded) with the caller's headers. Never throws: problems are outcomes. */
  async send(target: string, body: string, headers: Record<string, string>): Promise<SendOutcome> {
    const started = performance.now();
    const outcome = (
      kind: SendOutcome['kind'],
      statusCode: number | null,
      error: string | null,
      timeout?: SendTimeout,
    ): SendOutcome => ({
      kind,
      statusCode,
      error,
      durationMs: Math.round(performance.now() - started),
      ...(timeout === undefined ? {} : { timeout }),
    });
    const timedOut = (limit: SendTimeout) =>
      outcome('retry', null, this.describeTimeout(limit), limit);

    const checked = checkTargetAtSend(target, this.policy);
    if ('error' in checked) return outcome('failed', null, checked.error);
    const { url, host } = checked;

    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.timeoutMs);
    let unpin = () => {};
    try {
      if (isIP(host) === 0) {
        const addresses = await this.resolve(host, deadline.signal);
        if (addresses === 'timeout') return timedOut('connect');
        if (addresses.length === 0) return outcome('retry', null, 'ENOTFOUND');
        const refused = this.policy.allowPrivateTargets
          ? undefined
          : addresses.find(({ address }) => !isPublicAddress(address));
        if (refused) return outcome('failed', null, `address ${refused.address} is not public`);
        unpin = this.pin(host, addresses);
      }

      const response = await request(url, {
        method: 'POST',
        headers: ownHeaders(headers),
        body,
        dispatcher: this.agent,
        signal: deadline.signal,
        headersTimeout: this.headersTimeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      await this.discard(response);
      const status = response.statusCode;
      if (status >= 200 && status < 300) return outcome('delivered', status, null);
      if (status === 500) return outcome('retry', status, 'HTTP 500');
      const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
      return outcome('failed', status, `HTTP ${status}${redirect}`);
    } catch (error) {
      if (deadline.signal.aborted) return timedOut('total');
      const timeout = TIMEOUTS.get(errorCode(error) ?? '');
      if (timeout !== undefined) return timedOut(timeout);
      const { kind, description } = this.classify(error);
      return outcome(kind, null, description);
    } finally {
      clearTimeout(timer);
      unpin();
    }
  }

  /** Ends every connection; sends still in flight come back as 'retry'. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.agent.destroy();
  }

  onApplicationShutdown(): Promise<void> {
    return this.close();
  }

  /** The host name's addresses, or 'timeout' when resolving it outlasts the connect limit. */
  private async resolve(host: string, deadline: AbortSignal): Promise<LookupAddress[] | 'timeout'> {
    const signal =
      this.connectTimeoutMs > 0
        ? AbortSignal.any([deadline, AbortSignal.timeout(this.connectTimeoutMs)])
        : deadline;
    try {
      // A DNS lookup cannot be cancelled, only no longer waited for.
      return await untilAborted(this.lookup(host, { all: true }), signal);
    } catch (error) {
      if (signal.aborted && !deadline.aborted) return 'timeout';
      throw error;
    }
  }

  /** Reads a small response to its end (the connection is kept), drops a larger with its socket. */
  private async discard({ body }: Dispatcher.ResponseData): Promise<void> {
    try {
      await body.dump({ limit: this.maxResponseBytes });
    } catch {
      // The status has arrived; a body cut short or too slow changes nothing.
    }
  }

  private describeTimeout(limit: SendTimeout): string {
    if (limit === 'total') return `timeout after ${this.timeoutMs} ms`;
    const ms = limit === 'connect' ? this.connectTimeoutMs : this.headersTimeoutMs;
    return `${limit} timeout after ${ms} ms`;
  }

  private classify(error: unknown): { kind: 'retry' | 'failed'; description: string } {
    const code = errorCode(error);
    const message = error instanceof Error ? error.message : String(error);
    // The receiver answered, with something that is not HTTP: an answer, not a connection error.
    if (
      (error instanceof Error && error.name === 'HTTPParserError') ||
      code === 'UND_ERR_HEADERS_OVERFLOW'
    ) {
      return { kind: 'failed', description: shorten(`invalid HTTP response: ${message}`) };
    }
    if (code === undefined) return { kind: 'retry', description: shorten(message) };
    if (code === 'UND_ERR_SOCKET') {
      return { kind: 'retry', description: `socket hang up (${message})` };
    }
    if (code === 'UND_ERR_DESTROYED' || code === 'UND_ERR_CLOSED') {
      return { kind: 'retry', description: 'sender closed' };
    }
    if (REQUEST_ERRORS.has(code)) {
      return { kind: 'failed', description: shorten(`${code}: ${message}`) };
    }
    // Everything else comes from reaching the receiver: refused, reset, unreachable, DNS, TLS.
    return { kind: 'retry', description: code };
  }

  private pin(host: string, addresses: LookupAddress[]): () => void {
    const checked = this.pins.get(host) ?? new Map<string, { family: number; sends: number }>();
    this.pins.set(host, checked);
    const unique = new Map<string, number>(addresses.map((a) => [a.address, a.family]));
    for (const [address, family] of unique) {
      const pin = checked.get(address);
      if (pin) pin.sends += 1;
      else checked.set(address, { family, sends: 1 });
    }
    return () => {
      for (const [address] of unique) {
        const pin = checked.get(address);
        if (pin && --pin.sends === 0) checked.delete(address);
      }
      if (checked.size === 0 && this.pins.get(host) === checked) this.pins.delete(host);
    };
  }

  /** The Agent's lookup: the pinned addresses, never a DNS query. */
  private readonly pinnedLookup: LookupFunction = (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const addresses = [...(this.pins.get(hostname) ?? [])]
      .map(([address, pin]) => ({ address, family: pin.family }))
      .filter((a) => family === undefined || family === 0 || a.family === family);
    if (addresses.length === 0) {
      const error: NodeJS.ErrnoException = new Error(`no checked address for ${hostname}`);
      error.code = 'ENOTPINNED';
      callback(error, []);
    } else if (options.all) {
      callback(null, addresses);
    } else {
      callback(null, addresses[0].address, addresses[0].family);
    }
  };
}

export const webhookSenderProvider: FactoryProvider<WebhookSender> = {
  provide: WebhookSender,
  useFactory: (config: AppConfig) => WebhookSender.fromConfig(config),
  inject: [AppConfig],
};

function ownHeaders(callerHeaders: Record<string, string>): Record<string, string> {
  return {
    ...Object.fromEntries(
      Object.entries(callerHeaders).filter(([name]) => !OWN_HEADERS.has(name.toLowerCase())),
    ),
    'content-type': 'application/x-www-form-urlencoded',
    'user-agent': WEBHOOK_USER_AGENT,
  };
}

/** The error's code; when every address of a host failed (AggregateError), the first one's. */
function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, errors } = error as { code?: unknown; errors?: unknown };
  if (typeof code === 'string') return code;
  if (Array.isArray(errors) && errors.length > 0) return errorCode(errors[0]);
  return undefined;
}

function shorten(text: string): string {
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
