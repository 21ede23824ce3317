import { Cluster } from 'ioredis';
import type { RedisConnection } from '../queues/redis-connections';
import type { LimitsConfig } from '../../config/app-config';
import type { Slot } from './request-slot';

/** The rate window: the contract counts requests per second. */
export const WINDOW_MS = 1000;

export interface ClientBatch {
  client: string;
  /** This pod's admitted requests of the client still in flight. */
  held: number;
  /** The client's requests waiting for their verdict, in arrival order (none: a report of `held`). */
  asking: Slot[];
}

/**
 * Of a client's `asking`, in order: the first `admitted` are admitted, the next up to `passing`
 * refused for concurrency, the rest for the rate, for `retryAfterMs`.
 */
export interface ClientVerdict {
  admitted: number;
  passing: number;
  retryAfterMs: number;
}

/**
 * One Redis script per batch of requests (one round trip, shared), constant work per client.
 * - **Rate**: a client's requests are counted together in its fixed one-second window (`INCRBY`);
 *   those past the limit are refused with the window's remaining ms.
 * - **Concurrency**: a hash per client, a field `<expiry ms>:<count>` per pod holding requests of
 *   it. Only that pod writes its field, with every call touching the client, one call at a time:
 *   the field is the pod's count as of its last call, so a finished request is released by the next
 *   report. A request is admitted while all pods' counts and those admitted before it stay within
 *   the limit. A field lives `slotTtl` past its last report: a dead pod's requests stop counting.
 *
 * KEYS: per client its rate key and in-flight key. ARGV: clients, rate limit, window ms,
 * concurrency limit, slot ttl ms, now, pod id; then per client `held` and its number asking.
 * Returns per client `admitted, passing, retryAfterMs`.
 */
const ADMIT_SCRIPT = `
local c = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local concurrent = tonumber(ARGV[4])
local slotTtl = tonumber(ARGV[5])
local now = tonumber(ARGV[6])
local pod = ARGV[7]
local out = {}
for i = 1, c do
  local rateKey = KEYS[2 * i - 1]
  local flightKey = KEYS[2 * i]
  local held = tonumber(ARGV[6 + 2 * i])
  local asking = tonumber(ARGV[7 + 2 * i])
  local passing = 0
  local ttl = window
  local admitted = 0
  if asking > 0 then
    local hits = redis.call('INCRBY', rateKey, asking)
    if hits == asking then
      redis.call('PEXPIRE', rateKey, window)
    end
    passing = math.max(0, math.min(asking, limit - (hits - asking)))
    if passing < asking and hits > asking then
      ttl = redis.call('PTTL', rateKey)
      if ttl < 0 then
        redis.call('PEXPIRE', rateKey, window)
        ttl = window
      elseif ttl == 0 then
        ttl = 1
      end
    end
  end
  if passing > 0 then
    local others = 0
    local fields = redis.call('HGETALL', flightKey)
    for k = 1, #fields, 2 do
      if fields[k] ~= pod then
        local value = fields[k + 1]
        local sep = string.find(value, ':', 1, true)
        if sep == nil or tonumber(string.sub(value, 1, sep - 1)) < now then
          redis.call('HDEL', flightKey, fields[k])
        else
          others = others + tonumber(string.sub(value, sep + 1))
        end
      end
    end
    admitted = math.max(0, math.min(passing, concurrent - others - held))
  end
  local mine = held + admitted
  if mine > 0 then
    redis.call('HSET', flightKey, pod, string.format('%d:%d', now + slotTtl, mine))
    redis.call('PEXPIRE', flightKey, slotTtl)
  else
    redis.call('HDEL', flightKey, pod)
  end
  out[3 * i - 2] = admitted
  out[3 * i - 1] = passing
  out[3 * i] = ttl
end
return out
`;

/** A client's keys: its address as their hash tag, the one slot of a Redis Cluster they share. */
const rateKey = (client: string) => `limits:rate:{${client}}`;
const flightKey = (client: string) => `limits:inflight:{${client}}`;

type LimitsRedis = RedisConnection & {
  admitRequests(args: (string | number)[]): Promise<number[]>;
};

export function defineAdmitRequests(redis: RedisConnection): void {
  redis.defineCommand('admitRequests', { lua: ADMIT_SCRIPT });
}

/** One call of the script for `batches` (one per client): their verdicts, in order. */
function admitRequests(
  redis: RedisConnection,
  pod: string,
  batches: ClientBatch[],
  limits: LimitsConfig,
): Promise<ClientVerdict[]> {
  const args: (string | number)[] = [2 * batches.length];
  for (const { client } of batches) args.push(rateKey(client), flightKey(client));
  args.push(
    batches.length,
    limits.perSecond,
    WINDOW_MS,
    limits.concurrent,
    limits.slotTtlMs,
    Date.now(),
    pod,
  );
  for (const batch of batches) args.push(batch.held, batch.asking.length);
  return (redis as LimitsRedis).admitRequests(args).then((out) =>
    batches.map((_, i) => ({
      admitted: out[3 * i],
      passing: out[3 * i + 1],
      retryAfterMs: out[3 * i + 2],
    })),
  );
}

/**
 * One call on a single Redis; on a Redis Cluster, where a script's keys must share a slot, one call
 * per client (its keys share its hash tag), pipelined. One failing call fails the batch (open).
 */
export function admitInSlots(
  redis: RedisConnection,
  pod: string,
  batches: ClientBatch[],
  limits: LimitsConfig,
): Promise<ClientVerdict[]> {
  if (!(redis instanceof Cluster) || batches.length <= 1)
    return admitRequests(redis, pod, batches, limits);
  return Promise.all(batches.map((batch) => admitRequests(redis, pod, [batch], limits))).then(
    (lists) => lists.flat(),
  );
}
