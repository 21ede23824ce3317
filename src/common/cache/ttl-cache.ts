import { BoundedMap } from './bounded-map';

/**
 * Values by key, each kept `ttlMs` after it was read, at most `maxEntries` (the oldest dropped
 * first): the per-process caches of authentication. Concurrent loads of one key share one read,
 * and a read in flight while anything was deleted is not kept: it may hold what the deletion meant
 * to forget (a rotated key, a disabled token). While suspended it answers nothing.
 */
export class TtlCache<K, V> {
  private readonly entries: BoundedMap<K, { value: V; expiresAt: number }>;
  private readonly loading = new Map<K, Promise<V>>();
  /** Bumped by every deletion: a read that began before one must not refill the cache. */
  private deletions = 0;
  /** False between suspend() and resume(). */
  private trusted = true;

  constructor(
    private readonly ttlMs: number,
    maxEntries = 10_000,
  ) {
    this.entries = new BoundedMap(maxEntries);
  }

  get(key: K): V | undefined {
    if (!this.trusted) return undefined;
    const entry = this.entries.get(key);
    return entry && entry.expiresAt > Date.now() ? entry.value : undefined;
  }

  /** The fresh value, else what `read` answers (see load). */
  getOrLoad(key: K, read: () => Promise<V>, keep: (value: V) => boolean): Promise<V> {
    const fresh = this.get(key);
    return fresh !== undefined ? Promise.resolve(fresh) : this.load(key, read, keep);
  }

  /** What `read` answers now (one read per key at a time), kept if `keep` (not unknown tokens). */
  load(key: K, read: () => Promise<V>, keep: (value: V) => boolean): Promise<V> {
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.read(key, read, keep);
      this.loading.set(key, pending);
    }
    return pending;
  }

  delete(key: K): void {
    this.deletions++;
    this.entries.delete(key);
  }

  deleteWhere(matches: (key: K, value: V) => boolean): void {
    this.deletions++;
    for (const [key, entry] of this.entries)
      if (matches(key, entry.value)) this.entries.delete(key);
  }

  /** Forgets all and, until resume(), neither answers nor keeps: its owner hears of no deletion. */
  suspend(): void {
    this.trusted = false;
    this.clear();
  }

  /** Forgets all (it may have missed a deletion; so may a read in flight), then keeps again. */
  resume(): void {
    this.clear();
    this.trusted = true;
  }

  private clear(): void {
    this.deletions++;
    this.entries.clear();
  }

  private async read(key: K, read: () => Promise<V>, keep: (value: V) => boolean): Promise<V> {
    const deletionsBefore = this.deletions;
    try {
      const value = await read();
      if (this.trusted && this.ttlMs > 0 && keep(value) && this.deletions === deletionsBefore) {
        this.entries.set(key, { value, expiresAt: Date.now() + this.ttlMs });
      }
      return value;
    } finally {
      this.loading.delete(key);
    }
  }
}
