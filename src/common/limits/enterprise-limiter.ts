import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import { AppConfig } from '../../config/app-config';
import { TooManyRequestsError } from '../errors/domain-error';
import { ROOT_LOGGER } from '../logging/logging.module';
import { LIMITS_REDIS } from './limits-redis';

/** The window of the per-enterprise limit: the operator sets requests per minute. */
export const ENTERPRISE_WINDOW_MS = 60_000;
const UNENFORCED_LOG_INTERVAL_MS = 10_000;

/** Per enterprise, a fixed window: its count after INCRBY its requests, and the ms left. */
const COUNT_SCRIPT = `
local window = tonumber(ARGV[#KEYS + 1])
local out = {}
for i = 1, #KEYS do
  local count = tonumber(ARGV[i])
  local hits = redis.call('INCRBY', KEYS[i], count)
  if hits == count then redis.call('PEXPIRE', KEYS[i], window) end
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl < 0 then
    redis.call('PEXPIRE', KEYS[i], window)
    ttl = window
  end
  out[#out + 1] = hits
  out[#out + 1] = ttl
end
return out
`;

type CountingRedis = Redis & {
  countEnterpriseRequests(...args: (string | number)[]): Promise<number[]>;
};

interface Waiter {
  limit: number;
  resolve: (refusal: TooManyRequestsError | undefined) => void;
}

/**
 * The operator's limit on an enterprise's requests per minute, checked once it is authenticated
 * (nobody else can spend its allowance), on with the per-IP limits. As RequestLimiter: one script
 * call per turn of the event loop, refused here until the window ends, Redis down: admitted.
 */
@Injectable()
export class EnterpriseLimiter {
  private readonly enabled: boolean;
  private pending = new Map<number, Waiter[]>();
  private flushScheduled = false;
  /** Enterprises over their limit: refused here until their window ends (epoch ms). */
  private readonly blocked = new Map<number, number>();
  private nextUnenforcedLogAt = 0;

  constructor(
    config: AppConfig,
    @Inject(LIMITS_REDIS) private readonly redis: Redis,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    this.enabled = config.limits.enabled;
    redis.defineCommand('countEnterpriseRequests', { lua: COUNT_SCRIPT });
  }

  /** Undefined when the request is admitted (or the limits are off), else the 429 to answer. */
  admit(
    enterpriseId: number,
    perMinute: number,
  ): Promise<TooManyRequestsError | undefined> | undefined {
    if (!this.enabled) return undefined;
    const until = this.blocked.get(enterpriseId);
    if (until !== undefined) {
      const left = until - Date.now();
      if (left > 0) return Promise.resolve(refusal(enterpriseId, perMinute, left));
      this.blocked.delete(enterpriseId);
    }
    if (this.redis.status !== 'ready') {
      this.unenforced();
      return undefined;
    }
    return new Promise((resolve) => {
      const waiters = this.pending.get(enterpriseId);
      if (waiters) waiters.push({ limit: perMinute, resolve });
      else this.pending.set(enterpriseId, [{ limit: perMinute, resolve }]);
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  private readonly flush = (): void => {
    this.flushScheduled = false;
    const batch = this.pending;
    this.pending = new Map();
    const ids = [...batch.keys()];
    const args: (string | number)[] = [
      ...ids.map((id) => `limits:enterprise:${id}`),
      ...ids.map((id) => batch.get(id)!.length),
      ENTERPRISE_WINDOW_MS,
    ];
    (this.redis as CountingRedis).countEnterpriseRequests(ids.length, ...args).then(
      (answers) => {
        ids.forEach((id, i) => this.settle(id, batch.get(id)!, answers[2 * i], answers[2 * i + 1]));
      },
      (err: Error) => {
        this.unenforced(err);
        for (const waiters of batch.values()) for (const w of waiters) w.resolve(undefined);
      },
    );
  };

  /** The batch's n requests of one enterprise were counted as hits − n + 1 … hits of its window. */
  private settle(id: number, waiters: Waiter[], hits: number, ttlMs: number): void {
    const before = hits - waiters.length;
    waiters.forEach((waiter, j) => {
      if (before + j + 1 <= waiter.limit) return waiter.resolve(undefined);
      this.blocked.set(id, Date.now() + ttlMs);
      waiter.resolve(refusal(id, waiter.limit, ttlMs));
    });
  }

  private unenforced(err?: Error): void {
    const now = Date.now();
    if (now < this.nextUnenforcedLogAt) return;
    this.nextUnenforcedLogAt = now + UNENFORCED_LOG_INTERVAL_MS;
    this.logger.error(
      { err: err === undefined ? undefined : { message: err.message }, redis: this.redis.status },
      'enterprise limits NOT enforced: Redis does not answer; requests are admitted unchecked',
    );
  }
}

function refusal(
  enterpriseId: number,
  perMinute: number,
  retryAfterMs: number,
): TooManyRequestsError {
  return new TooManyRequestsError(
    `Rate limit reached: at most ${perMinute} requests per minute for the enterprise "${enterpriseId}".`,
    Math.max(1, Math.ceil(retryAfterMs / 1000)),
  );
}
