import { Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { RedisConnection } from '../queues/redis-connections';
import { AppConfig } from '../../config/app-config';
import { EnterpriseLimiter } from './enterprise-limiter';
import { LIMITS_REDIS, createLimitsRedis } from './limits-redis';
import { RequestLimiter } from './request-limiter';

/** Closes the limits' connection last, after the releases of the last requests were sent. */
@Injectable()
class LimitsConnectionCloser implements OnApplicationShutdown {
  constructor(@Inject(LIMITS_REDIS) private readonly redis: RedisConnection) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.redis.status === 'ready') {
      await this.redis.quit().catch(() => this.redis.disconnect());
    } else {
      this.redis.disconnect();
    }
  }
}

/**
 * The API's limits: per IP (a Fastify hook, see configureApi), per enterprise (the auth guard's),
 * and their Redis connection, shared with the OAuth sign-in throttle.
 */
@Module({
  providers: [
    {
      provide: LIMITS_REDIS,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => createLimitsRedis(config),
    },
    LimitsConnectionCloser,
    RequestLimiter,
    EnterpriseLimiter,
  ],
  exports: [LIMITS_REDIS, RequestLimiter, EnterpriseLimiter],
})
export class LimitsModule {}
