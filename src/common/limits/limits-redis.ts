import type { AppConfig } from '../../config/app-config';
import { createRedisConnection, type RedisConnection } from '../queues/redis-connections';

/** Injection token of the Redis connection of the limits (request limits, sign-in throttling). */
export const LIMITS_REDIS = Symbol('LIMITS_REDIS');

/**
 * Longest a limit command waits for Redis: a request waits for its admission, so a Redis that does
 * not answer must not hold it longer (then it is admitted unchecked). A healthy one takes < 1 ms.
 */
export const LIMITS_COMMAND_TIMEOUT_MS = 50;

/**
 * The limits' own connection, failing fast rather than waiting: no offline queue, a command cut off
 * by a lost connection not sent again (its request was answered meanwhile), every command timed out
 * after LIMITS_COMMAND_TIMEOUT_MS; reconnecting every 100 ms up to 2 s. Keys under the deployment's
 * prefix, hash-tagged by client on a Redis Cluster (one script touches a client's keys).
 */
export function createLimitsRedis({ redis, queue }: AppConfig): RedisConnection {
  return createRedisConnection(redis, {
    keyPrefix: `${queue.prefix}:`,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    commandTimeout: LIMITS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  });
}
