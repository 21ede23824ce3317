import type { AppConfig } from '../../config/app-config';
import { createFailFastConnection, type RedisConnection } from '../queues/redis-connections';

/** Injection token of the Redis connection of the limits (request limits, sign-in throttling). */
export const LIMITS_REDIS = Symbol('LIMITS_REDIS');

/**
 * Longest a limit command waits for Redis: a request waits for its admission, so a Redis that does
 * not answer must not hold it longer (then it is admitted unchecked). A healthy one takes < 1 ms.
 */
export const LIMITS_COMMAND_TIMEOUT_MS = 50;

/**
 * The limits' own connection: a fail-fast one (createFailFastConnection) whose commands time out
 * after LIMITS_COMMAND_TIMEOUT_MS, and a command cut off by a lost connection is not sent again (its
 * request was answered meanwhile). Keys under the deployment's prefix, hash-tagged by client on a
 * Redis Cluster (one script touches a client's keys).
 */
export function createLimitsRedis(config: AppConfig): RedisConnection {
  return createFailFastConnection(config, {
    autoResendUnfulfilledCommands: false,
    commandTimeout: LIMITS_COMMAND_TIMEOUT_MS,
  });
}
