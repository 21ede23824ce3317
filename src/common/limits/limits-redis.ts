import type { AppConfig } from '../../config/app-config';
import { createRedisConnection, type RedisConnection } from '../queues/redis-connections';

/** Injection token of the Redis connection of the limits (request limits, sign-in throttling). */
export const LIMITS_REDIS = Symbol('LIMITS_REDIS');

/**
 * Longest a limit command may wait for Redis's answer. A request waits for its admission, so a Redis
 * that accepts the connection but does not answer (overloaded, a network partition) must not hold it
 * longer: past this the request is admitted unchecked. A healthy Redis answers in well under 1 ms.
 */
export const LIMITS_COMMAND_TIMEOUT_MS = 50;

/**
 * The limits' own connection, set up to fail fast rather than wait: while it is not connected a
 * command fails at once (no offline queue), a command cut off by a lost connection is not sent again
 * after reconnecting (its request was answered meanwhile), and every command times out after
 * LIMITS_COMMAND_TIMEOUT_MS. It reconnects on its own, every 100 ms up to every 2 s. Its keys are
 * under the deployment's prefix, like the queues' (several deployments or test runs share a Redis).
 * On a Redis Cluster (REDIS_CLUSTER_NODES) it is a cluster connection; the limits' keys are then
 * hash-tagged by client, so that a client's keys, which one script touches, share a slot.
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
