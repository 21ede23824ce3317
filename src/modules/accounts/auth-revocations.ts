import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { createRedisConnection, type RedisConnection } from '../../common/queues/redis-connections';
import { withTimeout } from '../../common/time/with-timeout';
import { AppConfig } from '../../config/app-config';

/** A committed change to what a credential proves: what the per-process caches must forget. */
export type Revocation =
  /** The account's key, settings or enterprise changed. */
  | { kind: 'account'; id: number }
  /** The enterprise's key or limit changed. */
  | { kind: 'enterprise'; id: number }
  /** An access token was disabled, by its keyed hash (the hash proves nothing: it is not the token). */
  | { kind: 'token'; id: string }
  /** Every access token issued from this authorization code was disabled. */
  | { kind: 'code'; id: string };

/** A per-process cache of proven credentials, told what to forget. */
export interface RevocableCache {
  /** Drops what the revocation names, if it holds it. */
  forget(revocation: Revocation): void;
  /** Forgets everything and trusts nothing it would keep until resume() (see TtlCache.suspend). */
  suspend(): void;
  /** Forgets everything and keeps again (see TtlCache.resume). */
  resume(): void;
}

/** How long an announcement may wait for Redis before the change is left to the caches' TTL. */
const ANNOUNCE_TIMEOUT_MS = 1000;

/** The channel of a deployment's revocations: its queue prefix keeps deployments apart. */
export function revocationChannel(config: AppConfig): string {
  return `${config.queue.prefix}:auth-revocations`;
}

/** The revocation a message carries, or undefined when it is not one this version knows. */
export function revocationOf(message: string): Revocation | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { kind, id } = parsed as { kind?: unknown; id?: unknown };
  if ((kind === 'account' || kind === 'enterprise') && Number.isSafeInteger(id))
    return { kind, id: id as number };
  if ((kind === 'token' || kind === 'code') && typeof id === 'string') return { kind, id };
  return undefined;
}

/**
 * Revocations reach every API process at once: whoever commits a change (the CLI too) announces it
 * on a Redis pub/sub channel after the commit, so that a process that forgets and reads again reads
 * the change; every API process hears it (RevocationFeed) and forgets.
 *
 * Pub/sub, not a per-holder epoch checked in Redis on each request (as AccountEpochs does): a
 * revocation is rare, a request is not, and GET /me's ~170 µs of CPU has no room for a Redis call.
 * What fire-and-forget cannot promise is covered: while a process's subscription is down (or not
 * up yet) its caches are suspended and the database decides; subscribed again, they forget all
 * (messages may have been missed); an announcement that fails is logged, and the change, as one no
 * code announces (hand-run SQL), reaches the other processes within AUTH_CACHE_TTL_MS.
 */
@Injectable()
export class AuthRevocations implements OnApplicationShutdown {
  private readonly caches: RevocableCache[] = [];
  /** 'none': no feed in this process (the CLI): its caches only hear what it announces itself. */
  private feed: 'none' | 'down' | 'up' = 'none';
  /** Made on the first announcement: most processes never make one. */
  private publisher: RedisConnection | undefined;
  private readonly channel: string;

  constructor(
    private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    this.channel = revocationChannel(config);
  }

  register(cache: RevocableCache): void {
    this.caches.push(cache);
    if (this.feed === 'down') cache.suspend();
  }

  /**
   * Call after the change committed: this process forgets at once, the others when they hear it.
   * Never throws: the change is made; were it not announced, the TTL still ends it (logged).
   */
  async announce(revocation: Revocation): Promise<void> {
    this.forget(revocation);
    try {
      await withTimeout(
        this.connection().publish(this.channel, JSON.stringify(revocation)),
        ANNOUNCE_TIMEOUT_MS,
        `Redis did not answer within ${ANNOUNCE_TIMEOUT_MS} ms`,
      );
    } catch (err) {
      this.logger.warn(
        { err, revocation },
        'revocation not announced: other API processes forget it within AUTH_CACHE_TTL_MS',
      );
    }
  }

  /** A revocation heard on the channel (this process's own too). */
  forget(revocation: Revocation): void {
    for (const cache of this.caches) cache.forget(revocation);
  }

  /** A message this version cannot read (a newer one's?): whatever it named, forget everything. */
  forgetAll(): void {
    if (this.feed === 'down') return; // nothing is kept
    for (const cache of this.caches) cache.resume();
  }

  /** The subscription is down (or not made yet): nothing cached can be trusted until it is back. */
  feedDown(): void {
    this.feed = 'down';
    for (const cache of this.caches) cache.suspend();
  }

  /** Subscribed (again): what was kept before may have missed a message; keep afresh. */
  feedUp(): void {
    this.feed = 'up';
    for (const cache of this.caches) cache.resume();
  }

  onApplicationShutdown(): void {
    this.publisher?.disconnect();
  }

  private connection(): RedisConnection {
    if (this.publisher === undefined) {
      // Offline queue: the CLI may announce before it is connected; the time-out bounds the wait.
      this.publisher = createRedisConnection(this.config.redis, {
        maxRetriesPerRequest: 1,
        connectTimeout: ANNOUNCE_TIMEOUT_MS,
        retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
      });
      this.publisher.on('error', () => undefined); // reported by the announcements that fail
    }
    return this.publisher;
  }
}
