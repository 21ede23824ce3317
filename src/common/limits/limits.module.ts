import { Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { LIMITS_REDIS, LIMITS_STORAGE, createLimitsRedis } from './limits-redis';
import { RateStorage } from './rate-storage';
import { RequestLimiter } from './request-limiter';

/** Closes the limits' connection last, after the releases of the last requests were sent. */
@Injectable()
class LimitsConnectionCloser implements OnApplicationShutdown {
  constructor(@Inject(LIMITS_REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.redis.status === 'ready') {
      await this.redis.quit().catch(() => this.redis.disconnect());
    } else {
      this.redis.disconnect();
    }
  }
}

/**
 * The API's limits: the per-IP request limiter (registered as a Fastify hook by configureApi), and the
 * Redis connection and @nestjs/throttler storage it shares with the OAuth sign-in throttle.
 */
@Module({
  providers: [
    {
      provide: LIMITS_REDIS,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => createLimitsRedis(config),
    },
    {
      provide: LIMITS_STORAGE,
      inject: [LIMITS_REDIS],
      useFactory: (redis: Redis): ThrottlerStorage => new RateStorage(redis),
    },
    LimitsConnectionCloser,
    RequestLimiter,
  ],
  exports: [LIMITS_REDIS, LIMITS_STORAGE, RequestLimiter],
})
export class LimitsModule {}
