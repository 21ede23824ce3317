import { Cluster } from 'ioredis';
import type { RedisConnection } from '../queues/redis-connections';
import type { LimitsConfig } from '../../config/app-config';
import type { Slot } from './request-slot';

/** The rate window: the contract counts requests per second. */
export const WINDOW_MS = 1000;

/** One client's part of a batch. */
export interface ClientBatch {
  client: string;
  /** This pod's admitted requests of the client still in flight, as the pod counts them now. */
  held: number;
  /** The client's requests waiting for their verdict, in arrival order (none: a report of `held`). */
  asking: Slot[];
}

/**
 * What the script says of a client's `asking`, in their order: the first `admitted` are admitted,
 * the next ones up to `passing` are refused for concurrency, the rest are refused for the rate, for
 * `retryAfterMs`.
 */
export interface ClientVerdict {
  admitted: number;
  passing: number;
  retryAfterMs: number;
}

/**
 * One Redis script per batch of requests, so that a request costs one round trip at most, shared,
 * and Redis does a constant amount of work per client of the batch, whatever its requests.
 *
 * - **Rate**: a client's requests in the batch are counted together in its fixed one-second window
 *   (`INCRBY`); those past the limit are refused with the window's remaining ms.
 * - **Concurrency**: a hash per client whose fields are the pods holding requests of it, each field
 *   `<expiry ms>:<count>`. A pod reports its own count (the requests it admitted and has not
 *   finished) with every call that touches the client; only that pod writes its field, and a pod
 *   makes one call at a time, so the field is the pod's count as of its last call: a request that
 *   finished is released by the next report, with no command of its own. A request is admitted while
 *   the other pods' counts, this pod's and the requests admitted before it stay within the limit.
 *   A field lives `slotTtl` past its pod's last report, so the requests of a pod that died stop
 *   counting then (expired fields are deleted when a client's count is read).
 *
 * KEYS: per client its rate key and its in-flight key. ARGV: clients c, rate limit, window ms,
 * concurrency limit, slot ttl ms, now (ms), pod id; then per client its `held` and its number of
 * requests asking. Returns per client `admitted, passing, retryAfterMs`.
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

/** Gives the connection the `admitRequests` command (the script, sent by its hash once loaded). */
export function defineAdmitRequests(redis: RedisConnection): void {
  redis.defineCommand('admitRequests', { lua: ADMIT_SCRIPT });
}

/** One call of the script for `batches` (one per client): its verdicts in their order. */
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
 * The script for a batch on a single Redis (one call); on a Redis Cluster, where a script's keys
 * must share a slot, one call per client (each client's keys share its hash tag), sent together:
 * the cluster connection pipelines them to their nodes. The verdicts come back in the order of
 * `batches`; one failing call fails the batch (which then fails open).
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
