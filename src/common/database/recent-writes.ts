import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppConfig } from '../../config/app-config';
import { ROOT_LOGGER } from '../logging/logging.module';
import { createFailFastConnection, type RedisConnection } from '../queues/redis-connections';

/**
 * Read-your-writes across API pods: the accounts that wrote within DB_READ_YOUR_WRITES_MS (longer
 * than a serving replica's lag bound plus a check interval), a Redis key each, read from the
 * primary. Not a GTID wait: the next read's client does not carry the GTID. Redis unreachable: the
 * check answers "wrote" (right, only slower). Only with replicas configured.
 */
@Injectable()
export class RecentWrites implements OnApplicationShutdown {
  private readonly redis: RedisConnection | undefined;
  private readonly windowMs: number;

  constructor(
    config: AppConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    this.windowMs = config.db.replicas.readYourWritesMs;
    if (config.db.replicas.nodes.length === 0 || this.windowMs === 0) return;
    this.redis = createFailFastConnection(config);
  }

  /** The account wrote (or is about to): its reads go to the primary for the window. */
  async mark(accountId: number): Promise<void> {
    if (this.redis === undefined) return;
    try {
      await this.redis.set(keyOf(accountId), '1', 'PX', this.windowMs);
    } catch (err) {
      this.logger.warn({ err, accountId }, 'read-your-writes mark failed');
    }
  }

  /** Whether the account wrote within the window (or Redis cannot tell). */
  async wrote(accountId: number): Promise<boolean> {
    if (this.redis === undefined) return false;
    try {
      return (await this.redis.exists(keyOf(accountId))) === 1;
    } catch {
      return true;
    }
  }

  onApplicationShutdown(): void {
    this.redis?.disconnect();
  }
}

/** The account as the hash tag: its key's slot on a Redis Cluster. */
const keyOf = (accountId: number) => `recent-write:{${accountId}}`;
