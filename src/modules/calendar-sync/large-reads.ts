/**
 * One sync at a time of a worker process past its first megabyte: a large source costs far more
 * than its bytes while it is expanded (a 10 MB feed took a worker from 182 to 360 MB resident), and
 * four at once ran a 512Mi container's 128 MB heap out. Small sources never wait; a large one waits
 * holding a megabyte (TCP holds its sender), within its CALENDAR_SYNC_TIMEOUT_MS.
 */
export const LARGE_READ_BYTES = 1024 * 1024;

export class LargeReads {
  private busy = false;
  private readonly waiting: (() => void)[] = [];

  /** Waits for the turn (or the signal); answers how to give it up (later calls do nothing). */
  enter(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve(this.turn());
    }
    return new Promise((resolve, reject) => {
      const next = () => {
        signal.removeEventListener('abort', abort);
        resolve(this.turn());
      };
      const abort = () => {
        this.waiting.splice(this.waiting.indexOf(next), 1);
        reject(signal.reason as Error);
      };
      this.waiting.push(next);
      signal.addEventListener('abort', abort, { once: true });
    });
  }

  /** The turn's end: handed to the next in line, or the gate left open. */
  private turn(): () => void {
    let over = false;
    return () => {
      if (over) return;
      over = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.busy = false;
    };
  }
}
