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
 * Answers computed from one account's data, kept by one process (docs/availability-cache.md),
 * frozen (callers share them), served only while the account's write epoch is the one the caller
 * read *before* the answer's data (UnitOfWork bumps it after every commit: an answer that may have
 * missed a write is never served), before the answer's `validUntil`, and within `ttlMs` (a write no
 * UnitOfWork covered is seen within that). With `ttlMs` 0 nothing is kept.
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
