import { Cluster } from 'ioredis';
import type { RedisConnection } from '../queues/redis-connections';
import type { LimitsConfig } from '../../config/app-config';
import type { Slot } from './request-slot';

/** The rate window: the contract counts requests per second. */
export const WINDOW_MS = 1000;

/**
 * One Redis script per batch of requests, so that a request costs one round trip at most, shared.
 * The batch comes grouped by client (a client's requests in one batch are counted together: one
 * command per group, not per request). Releases of the requests finished meanwhile run first, so
 * that their slots serve this batch. Then for each client: count its requests in its fixed
 * one-second window (those past the limit are refused with the window's remaining ms), then give
 * the others concurrency slots while there are free ones (refused with -1 past that): a slot is a
 * member of the client's sorted set scored with its expiry, so that a slot whose pod died frees
 * itself. Verdicts come back in the batch's order: 0 admitted, > 0 or -1 refused.
 *
 * KEYS: the slots key of each client with releases, then each client's rate key and slots key.
 * ARGV: releasing clients r, clients c, rate limit, window ms, concurrency limit, slot ttl ms, now
 * (ms); then per releasing client its count and members; then per client its count and members.
 */
const ADMIT_SCRIPT = `
local r = tonumber(ARGV[1])
local c = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local window = tonumber(ARGV[4])
local concurrent = tonumber(ARGV[5])
local slotTtl = tonumber(ARGV[6])
local now = tonumber(ARGV[7])
local cursor = 8
-- unpack() has a stack limit: long lists go in chunks.
local function chunked(command, key, list)
  for s = 1, #list, 200 do
    redis.call(command, key, unpack(list, s, math.min(s + 199, #list)))
  end
end
for k = 1, r do
  local count = tonumber(ARGV[cursor])
  local members = {}
  for j = 1, count do members[j] = ARGV[cursor + j] end
  cursor = cursor + count + 1
  chunked('ZREM', KEYS[k], members)
end
local verdicts = {}
for i = 1, c do
  local rateKey = KEYS[r + 2 * i - 1]
  local slotsKey = KEYS[r + 2 * i]
  local count = tonumber(ARGV[cursor])
  cursor = cursor + 1
  local hits = redis.call('INCRBY', rateKey, count)
  local ttl = window
  if hits == count then
    redis.call('PEXPIRE', rateKey, window)
  end
  local passing = math.max(0, math.min(count, limit - (hits - count)))
  if passing < count and hits > count then
    ttl = redis.call('PTTL', rateKey)
    if ttl < 0 then
      redis.call('PEXPIRE', rateKey, window)
      ttl = window
    elseif ttl == 0 then
      ttl = 1
    end
  end
  local free = 0
  if passing > 0 then
    local taken = redis.call('ZCARD', slotsKey)
    if taken + passing > concurrent then
      -- Expired slots (their pod died) only matter when the client looks full.
      redis.call('ZREMRANGEBYSCORE', slotsKey, '-inf', now)
      taken = redis.call('ZCARD', slotsKey)
    end
    free = concurrent - taken
  end
  local slots = {}
  for j = 1, count do
    local member = ARGV[cursor]
    cursor = cursor + 1
    if j > passing then
      verdicts[#verdicts + 1] = ttl
    elseif free > 0 then
      free = free - 1
      slots[#slots + 1] = now + slotTtl
      slots[#slots + 1] = member
      verdicts[#verdicts + 1] = 0
    else
      verdicts[#verdicts + 1] = -1
    end
  end
  if #slots > 0 then
    chunked('ZADD', slotsKey, slots)
    redis.call('PEXPIRE', slotsKey, slotTtl)
  end
end
return verdicts
`;

type LimitsRedis = RedisConnection & {
  admitRequests(args: (string | number)[]): Promise<number[]>;
};

/** Gives the connection the `admitRequests` command (the script, sent by its hash once loaded). */
export function defineAdmitRequests(redis: RedisConnection): void {
  redis.defineCommand('admitRequests', { lua: ADMIT_SCRIPT });
}

/**
 * One call of the script for a batch, `releasing` and `admitting` grouped by client (see
 * byClient): its verdicts come back in the order of `slots`.
 */
export function admitRequests(
  redis: RedisConnection,
  releasing: Slot[][],
  admitting: Slot[][],
  limits: LimitsConfig,
): { slots: Slot[]; verdicts: Promise<number[]> } {
  const keys: string[] = [];
  for (const group of releasing) keys.push(group[0].slotsKey);
  for (const group of admitting) keys.push(group[0].rateKey, group[0].slotsKey);
  const args: (string | number)[] = [
    keys.length,
    ...keys,
    releasing.length,
    admitting.length,
    limits.perSecond,
    WINDOW_MS,
    limits.concurrent,
    limits.slotTtlMs,
    Date.now(),
  ];
  const slots: Slot[] = [];
  for (const group of releasing) {
    args.push(group.length);
    for (const slot of group) args.push(slot.member);
  }
  for (const group of admitting) {
    args.push(group.length);
    for (const slot of group) {
      args.push(slot.member);
      slots.push(slot);
    }
  }
  return { slots, verdicts: (redis as LimitsRedis).admitRequests(args) };
}

/**
 * admitRequests on a single Redis (one call a batch); on a Redis Cluster, where a script's keys
 * must share a slot, one call per client of the batch (each client's keys share its hash tag),
 * sent together: the cluster connection pipelines them to their nodes. The verdicts still come
 * back in the order of `slots`; one failing call fails the batch (which then fails open).
 */
export function admitInSlots(
  redis: RedisConnection,
  releasing: Slot[][],
  admitting: Slot[][],
  limits: LimitsConfig,
): { slots: Slot[]; verdicts: Promise<number[]> } {
  if (!(redis instanceof Cluster) || releasing.length + admitting.length <= 1)
    return admitRequests(redis, releasing, admitting, limits);
  const byClient = new Map<string, { releasing: Slot[][]; admitting: Slot[][] }>();
  const of = (client: string) => {
    let calls = byClient.get(client);
    if (calls === undefined) byClient.set(client, (calls = { releasing: [], admitting: [] }));
    return calls;
  };
  for (const group of releasing) of(group[0].client).releasing.push(group);
  for (const group of admitting) of(group[0].client).admitting.push(group);
  const calls = [...byClient.values()].map((call) =>
    admitRequests(redis, call.releasing, call.admitting, limits),
  );
  return {
    slots: calls.flatMap((call) => call.slots),
    verdicts: Promise.all(calls.map((call) => call.verdicts)).then((lists) => lists.flat()),
  };
}
