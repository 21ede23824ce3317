/** An item of a batch that failed on its own: its caller's promise rejects with `error`. */
export class ItemFailed {
  constructor(readonly error: unknown) {}
}

/** One result per item, in their order (ItemFailed: that item alone); a throw fails them all. */
export type RunBatch<I, R> = (items: I[]) => Promise<(R | ItemFailed)[]>;

/**
 * A batch of writes that succeed together: when the whole batch fails, its items are run again one
 * by one, so that an item that fails alone fails only its own caller.
 */
export function retryAlone<I>(run: (items: I[]) => Promise<void>): RunBatch<I, void> {
  return async (items) => {
    try {
      await run(items);
      return [];
    } catch (err) {
      if (items.length === 1) throw err;
      return Promise.all(items.map((item) => run([item]).catch((e: unknown) => new ItemFailed(e))));
    }
  };
}

export interface BatcherOptions {
  maxBatch: number;
  /** Batches running at once (each holds a MySQL connection while it runs). */
  maxInFlight: number;
}

interface Waiting<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

/**
 * Groups calls into batches without a timer: a call finding a free slot starts a batch at once;
 * calls made while every slot is busy go together in the next. Each call settles with its own
 * item's result only once its batch has run: a caller that awaits it knows its write was committed.
 */
export class Batcher<I, R> {
  private waiting: Waiting<I, R>[] = [];
  private inFlight = 0;

  constructor(
    private readonly run: RunBatch<I, R>,
    private readonly options: BatcherOptions,
  ) {}

  add(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.options.maxBatch);
      this.inFlight += 1;
      void this.runBatch(batch).finally(() => {
        this.inFlight -= 1;
        this.next();
      });
    }
  }

  private async runBatch(batch: Waiting<I, R>[]): Promise<void> {
    try {
      const results = await this.run(batch.map((w) => w.item));
      batch.forEach((w, i) => {
        const result = results[i];
        if (result instanceof ItemFailed) w.reject(result.error);
        else w.resolve(result);
      });
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
}
