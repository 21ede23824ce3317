/**
 * A value read on scrape, at most once per `ttlMs` however many scrapers ask (two Prometheus
 * replicas, a dashboard refreshing): callers within the time share the last read, or the read in
 * flight. A read that fails or takes longer than `timeoutMs` is not kept: the next scrape tries again.
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
    const promise = withTimeout(this.read(), this.timeoutMs);
    const entry = { at: now, promise };
    this.value = entry;
    promise.catch(() => {
      if (this.value === entry) this.value = undefined;
    });
    return promise;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
