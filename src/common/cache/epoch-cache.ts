import { BoundedMap } from './bounded-map';

/** A value with the last instant (epoch ms) at which the same data gives the same value. */
export interface TimedAnswer<V> {
  answer: V;
  /** `now` or earlier: not to be kept. */
  validUntil: number;
}

interface Kept<V> {
  epoch: string;
  answer: V;
  /** The earlier of the answer's own validity and the time it was kept plus the ttl. */
  until: number;
}

/**
 * Answers computed from one account's data, kept by one process: every kept answer of the service
 * is one of these (docs/availability-cache.md). An answer is served only while
 * - its account's write epoch (AccountEpochs) is the one the caller read *before* it read the
 *   answer's data: UnitOfWork bumps the epoch after every commit for the account, on any process, so
 *   an answer that may have missed a write is never served;
 * - the clock has not passed the answer's own `validUntil` (what the clock alone may change);
 * - and at most `ttlMs` after it was computed (a write no UnitOfWork covered, such as a hand-run
 *   statement, is seen within that; the epoch's key outlives it, see AccountEpochs).
 *
 * At most `maxEntries` answers, the oldest kept dropped first. Answers are frozen (with their
 * items or fields): callers share them. With `ttlMs` 0 nothing is kept.
 */
export class EpochCache<K, V extends object> {
  private readonly kept: BoundedMap<K, Kept<V>>;

  constructor(
    private readonly ttlMs: number,
    maxEntries = 10_000,
  ) {
    this.kept = new BoundedMap(maxEntries);
  }

  get(key: K, epoch: string, now: number): V | undefined {
    const entry = this.kept.get(key);
    if (entry === undefined) return undefined;
    if (entry.epoch === epoch && now <= entry.until) return entry.answer;
    this.kept.delete(key);
    return undefined;
  }

  /** Keeps `timed` under `epoch` (read before its data) when it stays valid past `now`. */
  keep(key: K, epoch: string, timed: TimedAnswer<V>, now: number): void {
    const until = Math.min(timed.validUntil, now + this.ttlMs);
    if (this.ttlMs === 0 || until <= now) return;
    this.kept.delete(key);
    for (const part of Object.values(timed.answer))
      if (typeof part === 'object' && part !== null) Object.freeze(part);
    this.kept.set(key, { epoch, answer: Object.freeze(timed.answer), until });
  }
}
