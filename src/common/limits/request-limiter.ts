import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import { AppConfig, type LimitsConfig } from '../../config/app-config';
import { TooManyRequestsError } from '../errors/domain-error';
import { sendError } from '../errors/api-exception.filter';
import { ROOT_LOGGER } from '../logging/logging.module';
import { clientKeyOf } from './client-address';
import { LIMITS_REDIS } from './limits-redis';

/** The rate window: the contract counts requests per second. */
const WINDOW_MS = 1000;
/** How often, at most, the limiter logs that it cannot enforce the limits. */
const UNENFORCED_LOG_INTERVAL_MS = 10_000;
/** Past this many locally remembered blocked clients, the expired ones are forgotten. */
const BLOCKED_SWEEP_SIZE = 10_000;

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

type LimitsRedis = Redis & {
  admitRequests(args: (string | number)[]): Promise<number[]>;
};

/** Where a request is between its arrival and the end of its response. */
const enum SlotState {
  /** Waiting for Redis's verdict. */
  Pending,
  /** Admitted: its slot is released when the response closes. */
  Admitted,
  /** The response closed (client gone) before the verdict: a slot granted then is released at once. */
  Closed,
  /** Refused, or released: nothing more to do. */
  Settled,
}

/** A request's admission and its concurrency slot (one small object per request). */
class Slot {
  state = SlotState.Pending;

  constructor(
    readonly limiter: RequestLimiter,
    readonly client: string,
    readonly rateKey: string,
    readonly slotsKey: string,
    readonly member: string,
    readonly request: FastifyRequest,
    readonly reply: FastifyReply,
    readonly done: HookHandlerDoneFunction,
  ) {}
}

const SLOT = Symbol('requestLimitSlot');
type LimitedResponse = ServerResponse & { [SLOT]?: Slot };

/** Slots grouped by client, in the order of each client's first (one group per client). */
function byClient(slots: Slot[]): Slot[][] {
  if (slots.length === 0) return [];
  if (slots.length === 1) return [slots];
  const groups = new Map<string, Slot[]>();
  for (const slot of slots) {
    const group = groups.get(slot.client);
    if (group === undefined) groups.set(slot.client, [slot]);
    else group.push(slot);
  }
  return [...groups.values()];
}

/** One listener for every response (`this` is the response): no closure per request. */
function onResponseClose(this: LimitedResponse): void {
  const slot = this[SLOT];
  if (slot !== undefined) slot.limiter.responseClosed(slot);
}

/**
 * The contract's per-IP limits on every request but the health probes: at most `perSecond` requests
 * a second and `concurrent` requests in flight per client address, counted in Redis so that all API
 * pods share them. An onRequest hook (before body parsing, routing's 404s and authentication
 * included): a refused request costs the service nothing more than the hook.
 *
 * Cost: the requests that arrive in one turn of the event loop, or while the previous call is out,
 * share one Redis script call (their admissions and the releases of the requests finished
 * meanwhile; a client's requests in it counted together), and a release is its member added to the
 * next call. A client over its rate is remembered by the pod until its window ends, so that its
 * further requests are refused without Redis.
 *
 * Redis unreachable: the limits fail open (requests are admitted at once, without waiting) and the
 * limiter says so in the log at most every 10 s, with the number of requests admitted unchecked.
 */
@Injectable()
export class RequestLimiter implements OnModuleDestroy {
  private readonly limits: LimitsConfig;
  private readonly message: string;
  private readonly ratePrefix: string;
  private readonly slotsPrefix: string;
  /** Makes slot members unique across pods: this process's random id and a counter. */
  private readonly memberPrefix = `${randomBytes(6).toString('base64url')}:`;
  private sequence = 0;

  private pending: Slot[] = [];
  /** Slots to release: sent with the next script call. */
  private releases: Slot[] = [];
  private flushScheduled = false;
  /**
   * One script call at a time: what arrives while one is out waits for it and goes in the next, so
   * that under load a call carries every request of its round trip (fewer, fuller calls: each is a
   * socket write and read, the bulk of the limiter's cost), and when quiet a request goes at once.
   */
  private callInFlight = false;

  /** Clients over their rate: refused here until their window ends (epoch ms). */
  private readonly blocked = new Map<string, number>();
  private readonly refusals = new Map<number, TooManyRequestsError>();

  private unenforcedSince: number | undefined;
  private uncheckedRequests = 0;
  private nextUnenforcedLogAt = 0;

  constructor(
    config: AppConfig,
    @Inject(LIMITS_REDIS) private readonly redis: Redis,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    this.limits = config.limits;
    this.message =
      `Rate limit reached: at most ${this.limits.perSecond} requests per second and ` +
      `${this.limits.concurrent} concurrent requests per IP address.`;
    // Under the connection's key prefix (the deployment's).
    this.ratePrefix = 'limits:rate:';
    this.slotsPrefix = 'limits:slots:';
    redis.defineCommand('admitRequests', { lua: ADMIT_SCRIPT });
    // The connection's errors (it reconnects on its own): while the limits are on, they are the
    // news that the limits are not enforced; otherwise the sign-in throttle fails its requests.
    redis.on('error', (err: Error) => {
      if (this.limits.enabled) this.unenforced(0, err);
    });
  }

  get enabled(): boolean {
    return this.limits.enabled;
  }

  /** The Fastify onRequest hook (bound: it is passed as is). */
  readonly onRequest = (
    request: FastifyRequest,
    reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ): void => {
    if (request.url.startsWith('/health/')) return done();
    const client = clientKeyOf(request.ip);
    if (this.blocked.size > 0) {
      const until = this.blocked.get(client);
      if (until !== undefined) {
        const left = until - Date.now();
        if (left > 0) return this.refuse(request, reply, left);
        this.blocked.delete(client);
      }
    }
    if (this.redis.status !== 'ready') {
      this.unenforced(1);
      return done();
    }
    const slot = new Slot(
      this,
      client,
      this.ratePrefix + client,
      this.slotsPrefix + client,
      this.memberPrefix + (++this.sequence).toString(36),
      request,
      reply,
      done,
    );
    const res = reply.raw as LimitedResponse;
    res[SLOT] = slot;
    res.on('close', onResponseClose);
    this.pending.push(slot);
    this.schedule();
  };

  /** The response finished, or its client went away: the request's slot is freed. */
  responseClosed(slot: Slot): void {
    if (slot.state === SlotState.Admitted) {
      slot.state = SlotState.Settled;
      this.release(slot);
    } else if (slot.state === SlotState.Pending) {
      slot.state = SlotState.Closed;
    }
  }

  private release(slot: Slot): void {
    if (this.redis.status !== 'ready') return; // the slot expires on its own
    this.releases.push(slot);
    this.schedule();
  }

  private schedule(): void {
    if (this.flushScheduled || this.callInFlight) return;
    this.flushScheduled = true;
    // After the I/O callbacks of this turn: every request that arrived in it joins the batch.
    setImmediate(this.flush);
  }

  /** A call came back: what arrived meanwhile goes in the next one. */
  private callReturned(): void {
    this.callInFlight = false;
    if (this.pending.length > 0 || this.releases.length > 0) this.schedule();
  }

  private readonly flush = (): void => {
    this.flushScheduled = false;
    if (this.pending.length === 0 && this.releases.length === 0) return;
    const releasing = byClient(this.releases);
    const admitting = byClient(this.pending);
    this.pending = [];
    this.releases = [];
    const keys: string[] = [];
    for (const group of releasing) keys.push(group[0].slotsKey);
    for (const group of admitting) keys.push(group[0].rateKey, group[0].slotsKey);
    const args: (string | number)[] = [
      keys.length,
      ...keys,
      releasing.length,
      admitting.length,
      this.limits.perSecond,
      WINDOW_MS,
      this.limits.concurrent,
      this.limits.slotTtlMs,
      Date.now(),
    ];
    // The verdicts come back in this order.
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
    this.callInFlight = true;
    (this.redis as LimitsRedis).admitRequests(args).then(
      (verdicts) => {
        this.callReturned();
        this.settle(slots, verdicts);
      },
      (err: Error) => {
        this.callReturned();
        this.failOpen(slots, err);
      },
    );
  };

  private settle(slots: Slot[], verdicts: number[]): void {
    if (this.unenforcedSince !== undefined) this.enforcedAgain();
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i];
      const verdict = verdicts[i];
      if (verdict === 0) {
        this.admit(slot);
        continue;
      }
      const closed = slot.state === SlotState.Closed;
      slot.state = SlotState.Settled;
      if (verdict > 0) this.block(slot.client, verdict);
      if (!closed) this.refuse(slot.request, slot.reply, verdict > 0 ? verdict : WINDOW_MS);
    }
  }

  private admit(slot: Slot): void {
    if (slot.state === SlotState.Closed) {
      slot.state = SlotState.Settled;
      this.release(slot);
      return;
    }
    slot.state = SlotState.Admitted;
    slot.done();
  }

  /** Redis did not answer: every request of the batch is admitted (its slot, if taken, released). */
  private failOpen(slots: Slot[], err: Error): void {
    this.unenforced(slots.length, err);
    for (const slot of slots) this.admit(slot);
  }

  private block(client: string, ms: number): void {
    const now = Date.now();
    if (this.blocked.size >= BLOCKED_SWEEP_SIZE) {
      for (const [key, until] of this.blocked) if (until <= now) this.blocked.delete(key);
    }
    this.blocked.set(client, now + ms);
  }

  private refuse(request: FastifyRequest, reply: FastifyReply, retryAfterMs: number): void {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    let error = this.refusals.get(seconds);
    if (error === undefined) {
      error = new TooManyRequestsError(this.message, seconds);
      this.refusals.set(seconds, error);
    }
    sendError(error, request, reply, undefined, this.logger);
  }

  private unenforced(requests: number, err?: Error): void {
    const now = Date.now();
    this.unenforcedSince ??= now;
    this.uncheckedRequests += requests;
    if (now < this.nextUnenforcedLogAt) return;
    this.nextUnenforcedLogAt = now + UNENFORCED_LOG_INTERVAL_MS;
    this.logger.error(
      {
        err: err === undefined ? undefined : { message: err.message },
        redis: this.redis.status,
        uncheckedRequests: this.uncheckedRequests,
        sinceMs: now - this.unenforcedSince,
      },
      'request limits NOT enforced: Redis does not answer; requests are admitted unchecked',
    );
    this.uncheckedRequests = 0;
  }

  private enforcedAgain(): void {
    this.logger.warn(
      {
        uncheckedRequests: this.uncheckedRequests,
        unenforcedMs: Date.now() - (this.unenforcedSince ?? Date.now()),
      },
      'request limits enforced again',
    );
    this.unenforcedSince = undefined;
    this.uncheckedRequests = 0;
  }

  onModuleDestroy(): void {
    // The releases of the last requests go with the last call; the connection closes in LimitsModule.
    if (this.flushScheduled || this.pending.length > 0 || this.releases.length > 0) this.flush();
  }
}
