import { randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppConfig } from '../../config/app-config';
import { ROOT_LOGGER } from '../logging/logging.module';
import { createFailFastConnection, type RedisConnection } from '../queues/redis-connections';

/**
 * An account's write epoch in Redis: a token that changes whenever anything is written for the
 * account, so that an answer computed from its data (EpochCache) may be kept while the token read
 * before computing it is still the account's. Off when AVAILABILITY_CACHE_TTL_MS is 0.
 * - UnitOfWork bumps it after every commit, before `run` returns. A reader reads the token *before*
 *   the data, so a write committed after that has bumped the token by the time anyone compares.
 * - A token is random: a key lost starts a new token that no kept answer carries.
 * - A token lives `2 × ttlMs`, kept answers `ttlMs` at most: a write that could not bump is seen
 *   within `ttlMs`. Redis unreachable for a reader: no token, nothing kept or served.
 */
@Injectable()
export class AccountEpochs implements OnApplicationShutdown {
  private readonly redis: RedisConnection | undefined;
  private readonly tokenTtlMs: number;
  private readonly unsentBumps = new Map<number, Promise<void>>();

  constructor(
    config: AppConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    this.tokenTtlMs = 2 * config.availability.cacheTtlMs;
    if (this.tokenTtlMs === 0) return;
    // The reads of requests served in one turn go to Redis in one write.
    this.redis = createFailFastConnection(config, { enableAutoPipelining: true });
  }

  get enabled(): boolean {
    return this.redis !== undefined;
  }

  /**
   * Something was committed for the account: every answer kept for it is stale. The bumps of one
   * turn of the event loop are one command, sent in the next: a bump joins only one not sent yet,
   * so the command is sent after every joiner's commit.
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
      await this.redis!.set(keyOf(accountId), newToken(), 'PX', this.tokenTtlMs);
    } catch (err) {
      this.logger.warn({ err, accountId }, 'account epoch bump failed');
    }
  }

  /** The account's token (made when none), or undefined without cache or Redis; read it first. */
  async current(accountId: number): Promise<string | undefined> {
    if (this.redis === undefined) return undefined;
    const token = newToken();
    try {
      // One round trip: the existing token, or this one, set.
      return (
        (await this.redis.set(keyOf(accountId), token, 'PX', this.tokenTtlMs, 'NX', 'GET')) ?? token
      );
    } catch {
      return undefined;
    }
  }

  onApplicationShutdown(): void {
    this.redis?.disconnect();
  }
}

/** The account as the hash tag: its key's slot on a Redis Cluster. */
const keyOf = (accountId: number) => `account-epoch:{${accountId}}`;

function newToken(): string {
  return randomBytes(9).toString('base64url');
}
