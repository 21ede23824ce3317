import { BoundedMap } from './bounded-map';

/**
 * Values by key, each kept `ttlMs` after it was read, at most `maxEntries` of them (the oldest
 * read is dropped first). Concurrent loads of one key share one read, and a read that was in flight
 * while anything was deleted is not kept: it may hold what the deletion meant to forget (a rotated
 * key, a disabled token). With `ttlMs` 0 nothing is kept.
 *
 * The per-process caches of authentication (accounts by user ID, OAuth tokens by hash) are these:
 * an authenticated request costs no query while its entry is fresh. Such a cache may be suspended
 * (see suspend): while it cannot hear of deletions made elsewhere, it answers nothing.
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

  /** The value kept for `key`, when it is still fresh. */
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

  /**
   * What `read` answers now (one read at a time per key), kept when `keep` says it is worth keeping
   * (unknown ids and tokens are not: probes would crowd out real entries).
   */
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

  /**
   * Forgets everything and, until resume(), neither answers nor keeps: every read goes to `read`.
   * For the time its owner cannot hear of the deletions other processes ask for (their messages
   * would be lost): nothing kept could be trusted.
   */
  suspend(): void {
    this.trusted = false;
    this.clear();
  }

  /**
   * Forgets everything (what was kept may have missed a deletion meanwhile; so may a read in flight,
   * which is not kept either) and keeps values again.
   */
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
