import type { FactoryProvider } from '@nestjs/common';
import type { WebhookDeferralReason } from '../../common/metrics/metrics';
import { AppConfig, type WebhookInFlightLimits } from '../../config/app-config';

/** What a delivery counts against: its receiver's origin and its account. */
export interface DeliveryKeys {
  /** Scheme, host and port (see targetOrigin). */
  target: string;
  accountId: number;
}

/** A delivery let through, counted until it is handed back to `finished` (or `cancelled`). */
export interface InFlight {
  readonly keys: DeliveryKeys;
}

export type Admission =
  | { kind: 'admitted'; delivery: InFlight }
  | { kind: 'deferred'; reason: WebhookDeferralReason; delayMs: number };

/** What an attempt's end changed about its receiver, worth a line in the log. */
export type TargetChange = 'slowed' | 'recovered' | null;

/**
 * Longest a delivery waits in the process for a place under a limit whose deliveries are flowing
 * (one ended in time within FLOWING_MS): a healthy receiver frees a place within milliseconds, and
 * putting its backlog off through Redis would cycle each of its jobs through a worker over and over
 * (bench:webhooks, one receiver: 1,094–1,264 deliveries/s so, 1,794–2,259/s waiting).
 */
export const WAIT_MS = 250;
export const FLOWING_MS = 250;
/** A delivery put off waits this long, doubled each time the same job is put off again… */
export const DEFER_BASE_MS = 250;
/** …up to this (well within the sweeper's grace, so that it never takes the message for lost). */
export const DEFER_MAX_MS = 5000;
/** A receiver slow this long ago and not tried since is forgotten (it gets the usual limit). */
export const SLOW_FORGET_MS = 10 * 60 * 1000;
/** Receivers (and accounts) remembered; beyond, those with nothing in flight are dropped. */
const MAX_TRACKED = 10_000;

interface KeyState {
  inFlight: number;
  /** When one of its attempts last ended in time (within the sender's limits). */
  lastInTimeAt: number;
}

interface TargetState extends KeyState {
  /** When one of its attempts last hit a time limit, while it has not answered in time since. */
  slowAt: number | null;
}

interface Waiter {
  keys: DeliveryKeys;
  resolve: (admission: Admission) => void;
  timer: NodeJS.Timeout;
}

/** The receiver's origin (`https://host:port`), what one target's limit counts. */
export function targetOrigin(target: string): string {
  try {
    return new URL(target).origin;
  } catch {
    return target; // refused by the sender at once, without a connection
  }
}

/**
 * Fairness between webhook receivers and between accounts, in one worker process: one tenant's
 * slow receivers must not take the delivery slots every tenant's webhooks need.
 *
 * - Limits, of the worker's 100 slots: deliveries in flight to one receiver origin (50 by default)
 *   and of one account (50). A receiver that hit a time limit (WebhookSender) is slow: 2 in
 *   flight, until one of its attempts ends in time again (an answer, or an error but a timeout).
 * - A delivery over a limit holds no slot while it waits: it is put off (its claim given back, a
 *   delayed job queued, its ladder unchanged), 250 ms doubled each time its job is put off, up to
 *   5 s, jittered so that a backlog does not come back at once. Only a delivery whose limit is
 *   flowing waits here instead (WAIT_MS). A slow receiver's backlog thus waits in Redis, behind
 *   itself, while other deliveries find free slots.
 *
 * Counted per process: what a tarpit starves is a process's slots, and the limits bound one
 * receiver's or account's share of them in every process; each learns a receiver is slow from its
 * own timeouts (one round of them at most). Counting in Redis would cost two round trips per
 * delivery and a recovery of a dead pod's counts, for only a bound on a receiver's total load.
 */
export class WebhookFairness {
  private readonly targets = new Map<string, TargetState>();
  private readonly accounts = new Map<number, KeyState>();
  private readonly waiting: Waiter[] = [];

  /** `random`: the jitter's source (tests fix it). */
  constructor(
    private readonly limits: WebhookInFlightLimits,
    private readonly random: () => number = Math.random,
  ) {}

  /**
   * Lets a delivery through, at once or after a short wait under a flowing limit, or says how long
   * to put it off and why. `deferrals`: how many times its job was put off already.
   */
  admit(keys: DeliveryKeys, deferrals = 0): Promise<Admission> {
    const full = this.full(keys);
    if (full === null) return Promise.resolve(this.take(keys));
    if (!full.flowing) {
      return Promise.resolve(this.defer(full.reason, deferrals));
    }
    return new Promise<Admission>((resolve) => {
      const waiter: Waiter = {
        keys,
        resolve,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          resolve(this.defer(this.full(keys)?.reason ?? full.reason, deferrals));
        }, WAIT_MS),
      };
      this.waiting.push(waiter);
    });
  }

  /** Ends a delivery's count: a timeout makes its receiver slow, an attempt in time healthy. */
  finished(delivery: InFlight, attempt: { timedOut: boolean }): TargetChange {
    const now = Date.now();
    const target = this.targetState(delivery.keys.target);
    let change: TargetChange = null;
    if (attempt.timedOut) {
      if (target.slowAt === null) change = 'slowed';
      target.slowAt = now;
    } else {
      if (target.slowAt !== null) change = 'recovered';
      target.slowAt = null;
      target.lastInTimeAt = now;
      this.accountState(delivery.keys.accountId).lastInTimeAt = now;
    }
    this.cancelled(delivery);
    return change;
  }

  /** Ends a delivery's count when no attempt was made (failed before sending); finished's too. */
  cancelled(delivery: InFlight): void {
    this.targetState(delivery.keys.target).inFlight -= 1;
    this.accountState(delivery.keys.accountId).inFlight -= 1;
    this.admitWaiting();
  }

  /** Deliveries in flight now to a receiver origin and of an account (tests, metrics). */
  inFlight(keys: DeliveryKeys): { target: number; account: number } {
    return {
      target: this.targets.get(keys.target)?.inFlight ?? 0,
      account: this.accounts.get(keys.accountId)?.inFlight ?? 0,
    };
  }

  isSlow(target: string): boolean {
    return this.targets.has(target) && this.targetState(target).slowAt !== null;
  }

  /** The first limit the delivery would exceed, and whether that limit is flowing; null if none. */
  private full(keys: DeliveryKeys): { reason: WebhookDeferralReason; flowing: boolean } | null {
    const target = this.targetState(keys.target);
    const account = this.accountState(keys.accountId);
    const slow = target.slowAt !== null;
    const targetFull =
      target.inFlight >= (slow ? this.limits.perSlowTarget : this.limits.perTarget);
    const accountFull = account.inFlight >= this.limits.perAccount;
    if (!targetFull && !accountFull) return null;
    const since = Date.now() - FLOWING_MS;
    const flowing =
      !(targetFull && (slow || target.lastInTimeAt < since)) &&
      !(accountFull && account.lastInTimeAt < since);
    return { reason: targetFull ? (slow ? 'slow-target' : 'target') : 'account', flowing };
  }

  private take(keys: DeliveryKeys): Admission {
    this.targetState(keys.target).inFlight += 1;
    this.accountState(keys.accountId).inFlight += 1;
    return { kind: 'admitted', delivery: { keys } };
  }

  private defer(reason: WebhookDeferralReason, deferrals: number): Admission {
    const base = Math.min(DEFER_MAX_MS, DEFER_BASE_MS * 2 ** Math.min(deferrals, 16));
    return { kind: 'deferred', reason, delayMs: Math.round(base * (0.5 + this.random() / 2)) };
  }

  /** Lets through, in their order, the waiting deliveries that fit now. */
  private admitWaiting(): void {
    for (let i = 0; i < this.waiting.length;) {
      const waiter = this.waiting[i];
      if (this.full(waiter.keys) !== null) {
        i += 1;
        continue;
      }
      this.waiting.splice(i, 1);
      clearTimeout(waiter.timer);
      waiter.resolve(this.take(waiter.keys));
    }
  }

  private targetState(origin: string): TargetState {
    const state = this.stateOf(this.targets, origin, { slowAt: null });
    if (state.slowAt !== null && Date.now() - state.slowAt > SLOW_FORGET_MS) state.slowAt = null;
    return state;
  }

  private accountState(accountId: number): KeyState {
    return this.stateOf(this.accounts, accountId, {});
  }

  /** The key's state, made (with `extra`) when new, after pruning a full map. */
  private stateOf<K, S extends KeyState>(
    states: Map<K, S>,
    key: K,
    extra: Omit<S, keyof KeyState>,
  ): S {
    let state = states.get(key);
    if (state === undefined) {
      if (states.size >= MAX_TRACKED) this.prune();
      state = { inFlight: 0, lastInTimeAt: -Infinity, ...extra } as S;
      states.set(key, state);
    }
    return state;
  }

  /** Drops what a new state would say as well: nothing in flight, and not slow (or long ago). */
  private prune(): void {
    const before = Date.now() - SLOW_FORGET_MS;
    for (const [origin, state] of this.targets) {
      if (state.inFlight === 0 && (state.slowAt === null || state.slowAt < before)) {
        this.targets.delete(origin);
      }
    }
    for (const [accountId, state] of this.accounts) {
      if (state.inFlight === 0) this.accounts.delete(accountId);
    }
  }
}

export const webhookFairnessProvider: FactoryProvider<WebhookFairness> = {
  provide: WebhookFairness,
  useFactory: (config: AppConfig) => new WebhookFairness(config.webhooks.inFlight),
  inject: [AppConfig],
};
