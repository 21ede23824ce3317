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
 * One connection to the deployment's Redis: the single node (REDIS_HOST) by default, or an ioredis
 * Cluster on REDIS_CLUSTER_NODES, which finds the other nodes itself and follows the slots as they
 * move. A cluster has only database 0 (REDIS_DB is ignored there). Every key a command or a script
 * touches must be in one slot on a cluster: the callers hash-tag their keys (see queuePrefix and
 * the limiter's keys).
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
  return new Cluster(redis.clusterNodes, clusterOptions);
}

/**
 * A connection for commands that must not hold a request: under the queue prefix, no offline queue,
 * no retry, 200 ms per command, reconnecting in the background; its errors are left to the calls
 * that fail (read-your-writes marks, accounts' write epochs).
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
 * Bull's key prefix. On a cluster it is a hash tag (`{scheduling}`): every key of a queue — its
 * lists, sets, job hashes, and those its Lua scripts touch together — is then in one slot, which
 * Redis Cluster requires of a script's keys. The single node keeps the plain prefix (the keys of
 * a running deployment do not move).
 */
export function queuePrefix({ redis, queue }: AppConfig): string {
  return isCluster(redis) ? `{${queue.prefix}}` : queue.prefix;
}
