import Redis, { Cluster, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { AppConfig, RedisConfig } from '../../config/app-config';

/** A connection to the single Redis or to the Redis Cluster (REDIS_CLUSTER_NODES). */
export type RedisConnection = Redis | Cluster;

/** Options of one connection; `retryStrategy` is the cluster's reconnection strategy there. */
export type ConnectionOptions = Omit<RedisOptions, 'host' | 'port' | 'db' | 'password'>;

export function isCluster(redis: RedisConfig): boolean {
  return redis.clusterNodes.length > 0;
}

/**
 * One connection to the deployment's Redis: the single node (REDIS_HOST), or a Cluster on
 * REDIS_CLUSTER_NODES (database 0 only). On a cluster every key a command or a script touches must
 * be in one slot: the callers hash-tag their keys (see queuePrefix and the limiter's keys).
 */
export function createRedisConnection(
  redis: RedisConfig,
  options: ConnectionOptions = {},
): RedisConnection {
  if (!isCluster(redis)) {
    return new Redis({
      host: redis.host,
      port: redis.port,
      password: redis.password,
      db: redis.db,
      ...options,
    });
  }
  const { retryStrategy, enableOfflineQueue, keyPrefix, ...nodeOptions } = options;
  const clusterOptions: ClusterOptions = {
    keyPrefix,
    enableOfflineQueue,
    clusterRetryStrategy: retryStrategy,
    // A node's own ready check would hold its commands until INFO answers; the cluster has its own.
    enableReadyCheck: nodeOptions.enableReadyCheck ?? true,
    redisOptions: { password: redis.password, ...nodeOptions },
  };
  return new EndingCluster(redis.clusterNodes, clusterOptions);
}

/**
 * A Cluster that ends when disconnected while it waits to reconnect. ioredis's own ends when its
 * last node connection has ended; between two attempts (a slot refresh timed out on a loaded
 * machine, a node went away) it holds none, so `disconnect` leaves it "disconnecting" for ever and
 * Bull's `close`, which waits for "end", never returns: the process cannot stop.
 */
export class EndingCluster extends Cluster {
  override disconnect(reconnect = false): void {
    const nothingToEnd = this.nodes('all').length === 0 && !['wait', 'end'].includes(this.status);
    super.disconnect(reconnect);
    if (nothingToEnd && !reconnect) {
      this.status = 'end';
      this.emit('end');
    }
  }
}

/**
 * A connection for commands that must not hold a request: no offline queue, no retry, 200 ms per
 * command, reconnecting in the background; its errors are left to the calls that fail.
 */
export function createFailFastConnection(
  config: AppConfig,
  options: ConnectionOptions = {},
): RedisConnection {
  const redis = createRedisConnection(config.redis, {
    keyPrefix: `${config.queue.prefix}:`,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 200,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
    ...options,
  });
  redis.on('error', () => undefined); // reported by the calls that fail
  return redis;
}

/**
 * Bull's key prefix; on a cluster a hash tag (`{scheduling}`), so that every key of a queue, which
 * its scripts touch together, is in one slot. The single node keeps the plain prefix (keys stay).
 */
export function queuePrefix({ redis, queue }: AppConfig): string {
  return isCluster(redis) ? `{${queue.prefix}}` : queue.prefix;
}
