import type { Logger } from 'pino';

export interface RepeatingPassOptions {
  /** Rows a pass takes at most: a pass that took this many goes again at once. */
  batchSize: number;
  /** The wait between passes, and before the next try after a failed pass. */
  intervalMs: number;
  logger: Logger;
  /** Logged (info, with `count`) after a pass that took rows. */
  tookRows: string;
  /** Logged (warning, with `err`) after a pass that failed. */
  failed: string;
}

/**
 * A worker's safety net run again and again: one pass at a time, the next `intervalMs` after one
 * ends (or a failed one), at once after a full batch. stop() waits for a pass in flight.
 */
export class RepeatingPass {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  /** `pass` returns how many rows it took. */
  constructor(
    private readonly pass: () => Promise<number>,
    private readonly options: RepeatingPassOptions,
  ) {}

  start(delayMs: number): void {
    this.schedule(delayMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    const { batchSize, intervalMs, logger } = this.options;
    this.timer = setTimeout(() => {
      this.running = this.pass()
        .then((count) => {
          if (count > 0) logger.info({ count }, this.options.tookRows);
          this.schedule(count === batchSize ? 0 : intervalMs);
        })
        .catch((err: unknown) => {
          logger.warn({ err }, this.options.failed);
          this.schedule(intervalMs);
        });
    }, delayMs);
  }
}
