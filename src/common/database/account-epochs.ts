import { randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppConfig } from '../../config/app-config';
import { ROOT_LOGGER } from '../logging/logging.module';
import { createFailFastConnection, type RedisConnection } from '../queues/redis-connections';

/**
 * An account's write epoch, shared by every process through Redis: a token that changes whenever
 * anything is written for the account, so that a process may keep an answer computed from the
 * account's data (see EpochCache) for as long as the token it read before computing it is
 * still the account's.
 *
 * - UnitOfWork bumps it after every commit for the account, in any process, before `run` returns
 *   (so before the response that reports the write leaves). A reader reads the token *before* it
 *   reads the data, so a
 *   write committed after that read has bumped the token by the time anyone compares: an answer is
 *   never kept under a token that outlived a write it missed.
 * - A token is random, never a counter: a key lost (Redis restarted, the key expired) starts a new
 *   token that no kept answer carries.
 * - A token lives `2 × ttlMs` after it was made, and kept answers `ttlMs` at most, so a write that
 *   could not bump (Redis unreachable for that one command, or a write no code path above covers,
 *   such as a hand-run SQL statement) is seen within `ttlMs`. Redis unreachable for a reader: no
 *   token, nothing is kept or served from what was kept.
 *
 * Off (no Redis connection, `current` answers undefined) when AVAILABILITY_CACHE_TTL_MS is 0.
 */
@Injectable()
export class AccountEpochs implements OnApplicationShutdown {
  private readonly redis: RedisConnection | undefined;
  private readonly tokenTtlMs: number;
  /** Bumps asked for and not sent yet, by account (see bump). */
  private readonly unsentBumps = new Map<number, Promise<void>>();

  constructor(
    config: AppConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    this.tokenTtlMs = 2 * config.availability.cacheTtlMs;
    if (this.tokenTtlMs === 0) return;
    this.redis = createFailFastConnection(config, {
      // The reads of requests served in one turn go to Redis in one write.
      enableAutoPipelining: true,
    });
  }

  get enabled(): boolean {
    return this.redis !== undefined;
  }

  private key(accountId: number): string {
    // The account as the hash tag: its key's slot on a Redis Cluster.
    return `account-epoch:{${accountId}}`;
  }

  /**
   * Something was written for the account (committed): every answer kept for it is stale. The
   * bumps of one account asked for in one turn of the event loop are one command, sent in the
   * next: a bump joins only one not sent yet, so the command is sent after every joiner's commit.
   */
  bump(accountId: number): Promise<void> {
    if (this.redis === undefined) return Promise.resolve();
    let unsent = this.unsentBumps.get(accountId);
    if (unsent === undefined) {
      unsent = new Promise<void>((resolve) =>
        setImmediate(() => {
          this.unsentBumps.delete(accountId);
          void this.send(accountId).then(resolve);
        }),
      );
      this.unsentBumps.set(accountId, unsent);
    }
    return unsent;
  }

  private async send(accountId: number): Promise<void> {
    try {
      await this.redis!.set(this.key(accountId), newToken(), 'PX', this.tokenTtlMs);
    } catch (err) {
      this.logger.warn({ err, accountId }, 'account epoch bump failed');
    }
  }

  /**
   * The account's token now (made when it has none), or undefined when there is no cache or Redis
   * cannot tell. Read it before reading the data an answer is computed from.
   */
  async current(accountId: number): Promise<string | undefined> {
    if (this.redis === undefined) return undefined;
    const token = newToken();
    try {
      // One round trip: the existing token, or (none) this one, set.
      const existing = await this.redis.set(
        this.key(accountId),
        token,
        'PX',
        this.tokenTtlMs,
        'NX',
        'GET',
      );
      return existing ?? token;
    } catch {
      return undefined;
    }
  }

  onApplicationShutdown(): void {
    this.redis?.disconnect();
  }
}

function newToken(): string {
  return randomBytes(9).toString('base64url');
}
