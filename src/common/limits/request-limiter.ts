import { randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Logger } from 'pino';
import { AppConfig, type LimitsConfig } from '../../config/app-config';
import { TooManyRequestsError } from '../errors/domain-error';
import { sendError } from '../errors/api-exception.filter';
import { ROOT_LOGGER } from '../logging/logging.module';
import {
  type ClientBatch,
  type ClientVerdict,
  WINDOW_MS,
  admitInSlots,
  defineAdmitRequests,
} from './admit-script';
import { clientKeyOf } from './client-address';
import type { RedisConnection } from '../queues/redis-connections';
import { LIMITS_REDIS } from './limits-redis';
import { Slot, type SlotOwner, SlotState, watchResponse } from './request-slot';

const UNENFORCED_LOG_INTERVAL_MS = 10_000;
/** Past this many locally remembered blocked clients, the expired ones are forgotten. */
const BLOCKED_SWEEP_SIZE = 10_000;

/**
 * The contract's per-IP limits (`perSecond`, `concurrent` in flight) on every request but the
 * health probes, counted in Redis for all pods, in an onRequest hook: a refusal costs nothing more.
 * The requests that arrive together share one script call (admit-script.ts), which also reports
 * the pod's requests in flight, releasing the finished ones. A client over its rate is refused
 * here until its window ends. Redis unreachable: the limits fail open, logged every 10 s at most.
 */
@Injectable()
export class RequestLimiter implements OnModuleDestroy, SlotOwner {
  private readonly limits: LimitsConfig;
  private readonly message: string;
  /** This process's field in each client's count of requests in flight. */
  private readonly pod = randomBytes(9).toString('base64url');

  private pending: Slot[] = [];
  /** This pod's admitted requests not finished yet, by client (no entry: none). */
  private readonly inFlight = new Map<string, number>();
  /** Clients whose count changed since the last call: reported with the next one. */
  private readonly changed = new Set<string>();
  private flushScheduled = false;
  /** One script call at a time: under load, fewer and fuller calls (each a socket round trip). */
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
    defineAdmitRequests(redis);
    // The connection's errors: while the limits are on, the news that they are not enforced.
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
    const slot = new Slot(this, client, request, reply, done);
    watchResponse(slot);
    this.pending.push(slot);
    this.schedule();
  };

  /** The response finished, or its client went away: the request no longer counts. */
  responseClosed(slot: Slot): void {
    if (slot.state === SlotState.Admitted) {
      slot.state = SlotState.Settled;
      this.release(slot.client);
    } else if (slot.state === SlotState.Pending) {
      slot.state = SlotState.Closed;
    }
  }

  private release(client: string): void {
    const count = (this.inFlight.get(client) ?? 1) - 1;
    if (count > 0) this.inFlight.set(client, count);
    else this.inFlight.delete(client);
    this.changed.add(client);
    // Redis down: the count goes with the first call once it is back (or the field expires).
    if (this.redis.status === 'ready') this.schedule();
  }

  private schedule(): void {
    if (this.flushScheduled || this.callInFlight) return;
    this.flushScheduled = true;
    // After the I/O callbacks of this turn: every request that arrived in it joins the batch.
    setImmediate(this.flush);
  }

  private callReturned(): void {
    this.callInFlight = false;
    if (this.pending.length > 0 || this.changed.size > 0) this.schedule();
  }

  private readonly flush = (): void => {
    this.flushScheduled = false;
    if (this.pending.length === 0 && this.changed.size === 0) return;
    const batches = this.batches();
    this.callInFlight = true;
    admitInSlots(this.redis, this.pod, batches, this.limits).then(
      (verdicts) => {
        this.callReturned();
        this.settle(batches, verdicts);
      },
      (err: Error) => {
        this.callReturned();
        this.failOpen(batches, err);
      },
    );
  };

  /** The pending requests by client (in the order of each client's first), and the counts changed. */
  private batches(): ClientBatch[] {
    const byClient = new Map<string, ClientBatch>();
    for (const slot of this.pending) {
      const batch = byClient.get(slot.client);
      if (batch !== undefined) batch.asking.push(slot);
      else byClient.set(slot.client, this.batchOf(slot.client, [slot]));
    }
    for (const client of this.changed)
      if (!byClient.has(client)) byClient.set(client, this.batchOf(client, []));
    this.pending = [];
    this.changed.clear();
    return [...byClient.values()];
  }

  private batchOf(client: string, asking: Slot[]): ClientBatch {
    return { client, held: this.inFlight.get(client) ?? 0, asking };
  }

  private settle(batches: ClientBatch[], verdicts: ClientVerdict[]): void {
    if (this.unenforcedSince !== undefined) this.enforcedAgain();
    for (let i = 0; i < batches.length; i++) {
      const { client, asking } = batches[i];
      const { admitted, passing, retryAfterMs } = verdicts[i];
      for (let j = 0; j < asking.length; j++) {
        const slot = asking[j];
        if (j < admitted) {
          this.admit(slot);
          continue;
        }
        const closed = slot.state === SlotState.Closed;
        slot.state = SlotState.Settled;
        // Past the rate: the client is refused here until its window ends.
        const rate = j >= passing;
        if (rate) this.block(client, retryAfterMs);
        if (!closed) this.refuse(slot.request, slot.reply, rate ? retryAfterMs : WINDOW_MS);
      }
    }
  }

  /** Admitted, and counted as this pod's (the script counted it so). */
  private admit(slot: Slot): void {
    this.inFlight.set(slot.client, (this.inFlight.get(slot.client) ?? 0) + 1);
    if (slot.state === SlotState.Closed) {
      slot.state = SlotState.Settled;
      this.release(slot.client);
      return;
    }
    slot.state = SlotState.Admitted;
    slot.done();
  }

  /** Redis did not answer: all admitted; the clients' counts go with the next call. */
  private failOpen(batches: ClientBatch[], err: Error): void {
    let requests = 0;
    for (const { client, asking } of batches) {
      requests += asking.length;
      this.changed.add(client);
      for (const slot of asking) this.admit(slot);
    }
    this.unenforced(requests, err);
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
    // The counts of the last requests go with the last call; the connection closes in LimitsModule.
    if (this.flushScheduled || this.pending.length > 0 || this.changed.size > 0) this.flush();
  }
}
