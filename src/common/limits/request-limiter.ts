import { randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Logger } from 'pino';
import { AppConfig, type LimitsConfig } from '../../config/app-config';
import { TooManyRequestsError } from '../errors/domain-error';
import { sendError } from '../errors/api-exception.filter';
import { ROOT_LOGGER } from '../logging/logging.module';
import { WINDOW_MS, admitInSlots, defineAdmitRequests } from './admit-script';
import { clientKeyOf } from './client-address';
import type { RedisConnection } from '../queues/redis-connections';
import { LIMITS_REDIS } from './limits-redis';
import { Slot, type SlotOwner, SlotState, byClient, watchResponse } from './request-slot';

/** How often, at most, the limiter logs that it cannot enforce the limits. */
const UNENFORCED_LOG_INTERVAL_MS = 10_000;
/** Past this many locally remembered blocked clients, the expired ones are forgotten. */
const BLOCKED_SWEEP_SIZE = 10_000;

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
export class RequestLimiter implements OnModuleDestroy, SlotOwner {
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
    @Inject(LIMITS_REDIS) private readonly redis: RedisConnection,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    this.limits = config.limits;
    this.message =
      `Rate limit reached: at most ${this.limits.perSecond} requests per second and ` +
      `${this.limits.concurrent} concurrent requests per IP address.`;
    // Under the connection's key prefix (the deployment's).
    // A client's two keys carry its address as their hash tag: the one slot of a Redis Cluster
    // that a script touching both needs (see admitInSlots).
    this.ratePrefix = 'limits:rate:';
    this.slotsPrefix = 'limits:slots:';
    defineAdmitRequests(redis);
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
      `${this.ratePrefix}{${client}}`,
      `${this.slotsPrefix}{${client}}`,
      this.memberPrefix + (++this.sequence).toString(36),
      request,
      reply,
      done,
    );
    watchResponse(slot);
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
    this.callInFlight = true;
    const { slots, verdicts } = admitInSlots(this.redis, releasing, admitting, this.limits);
    verdicts.then(
      (answers) => {
        this.callReturned();
        this.settle(slots, answers);
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
