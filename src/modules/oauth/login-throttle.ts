import { Inject, Injectable } from '@nestjs/common';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { Cluster } from 'ioredis';
import type { RedisConnection } from '../../common/queues/redis-connections';
import { Secrets } from '../../common/crypto/secrets';
import { LIMITS_REDIS } from '../../common/limits/limits-redis';
import { MINUTE } from '../../common/time/durations';

/** Sign-in attempts allowed per window, by the e-mail tried and by the client's IP address. */
export const LOGIN_LIMITS = {
  windowMs: 15 * MINUTE,
  perEmail: 5,
  /** Higher than per e-mail: several people may sign in from one office's address. */
  perIp: 20,
};

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Throttles sign-in on the authorization page, counted in Redis (one atomic script per count) so
 * that the limits hold across API pods. Every attempt counts, before the password is checked:
 * counting only failures would need a check and a count that are not atomic, and would tell an
 * attacker which guess was right. A success ends the attempts: in practice, failures are limited.
 * E-mails are counted by keyed hash (Redis holds no addresses), IPs as Fastify gives them
 * (TRUST_PROXY). The limits' own Redis connection fails at once while Redis is away: the sign-in
 * then fails (500), never passes unchecked.
 */
@Injectable()
export class LoginThrottle {
  private readonly storage: ThrottlerStorage;

  constructor(
    private readonly secrets: Secrets,
    @Inject(LIMITS_REDIS) redis: RedisConnection,
  ) {
    // Its script's two keys are hash-tagged alike by the library: one slot on a cluster too.
    this.storage =
      redis instanceof Cluster
        ? new ThrottlerStorageRedisService(redis)
        : new ThrottlerStorageRedisService(redis);
  }

  /** Counts an attempt with this e-mail from this address; refused when either is over its limit. */
  async attempt(email: string, ip: string): Promise<ThrottleVerdict> {
    const { windowMs, perEmail, perIp } = LOGIN_LIMITS;
    const emailKey = `oauth-login:email:${this.secrets.hash(email.trim().toLowerCase())}`;
    const [byEmail, byIp] = await Promise.all([
      this.storage.increment(emailKey, windowMs, perEmail, windowMs, 'oauth-login'),
      this.storage.increment(`oauth-login:ip:${ip}`, windowMs, perIp, windowMs, 'oauth-login'),
    ]);
    const blocked = [byEmail, byIp].filter((r) => r.isBlocked);
    if (blocked.length === 0) return { allowed: true };
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, ...blocked.map((r) => r.timeToBlockExpire)),
    };
  }
}
