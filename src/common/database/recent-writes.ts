import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppConfig } from '../../config/app-config';
import { ROOT_LOGGER } from '../logging/logging.module';
import { createFailFastConnection, type RedisConnection } from '../queues/redis-connections';

/**
 * Read-your-writes across API pods: which accounts wrote within the last DB_READ_YOUR_WRITES_MS,
 * kept in Redis (a key per account, expiring with the window) so that the pod serving the next
 * read knows of a write another pod served. While an account is in it, its reads go to the
 * primary (see ReadReplicas). The window exceeds the lag bound of a serving replica plus a check
 * interval (checked at start), so a replica serving after the window has the write.
 *
 * Why not a GTID wait (MASTER_GTID_WAIT with the write's @@last_gtid): exact, but the GTID would
 * have to reach the next read, which comes from a client that does not carry it, possibly to
 * another pod; and a wait holds the read on a lagging replica where the primary answers at once.
 *
 * Redis unreachable: the check answers "wrote" (the primary serves: always right, only slower);
 * a mark that fails is logged (its account may then read a replica up to the lag bound behind).
 * Only made when replicas are configured: without them there is nothing to route.
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

  private key(accountId: number): string {
    // The account as the hash tag: its key's slot on a Redis Cluster.
    return `recent-write:{${accountId}}`;
  }

  /** The account wrote (or is about to): its reads go to the primary for the window. */
  async mark(accountId: number): Promise<void> {
    if (this.redis === undefined) return;
    try {
      await this.redis.set(this.key(accountId), '1', 'PX', this.windowMs);
    } catch (err) {
      this.logger.warn({ err, accountId }, 'read-your-writes mark failed');
    }
  }

  /** Whether the account wrote within the window (or Redis cannot tell). */
  async wrote(accountId: number): Promise<boolean> {
    if (this.redis === undefined) return false;
    try {
      return (await this.redis.exists(this.key(accountId))) === 1;
    } catch {
      return true;
    }
  }

  onApplicationShutdown(): void {
    this.redis?.disconnect();
  }
}
