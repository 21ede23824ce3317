import { withTimeout } from '../time/with-timeout';

/**
 * A value read on scrape at most once per `ttlMs` however many scrapers ask (callers share the last
 * read, or the one in flight). A read that fails or outlasts `timeoutMs` is not kept.
 */
export class ScrapeCache<T> {
  private value: { at: number; promise: Promise<T> } | undefined;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly ttlMs: number,
    private readonly timeoutMs: number,
  ) {}

  get(now = Date.now()): Promise<T> {
    if (this.value && now - this.value.at < this.ttlMs) return this.value.promise;
    const promise = withTimeout(
      this.read(),
      this.timeoutMs,
      `no answer within ${this.timeoutMs} ms`,
    );
    const entry = { at: now, promise };
    this.value = entry;
    promise.catch(() => {
      if (this.value === entry) this.value = undefined;
    });
    return promise;
  }
}
