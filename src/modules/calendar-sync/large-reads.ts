/**
 * One sync at a time of a worker process past its first megabyte (LARGE_READ_BYTES). A source of
 * CALENDAR_SYNC_MAX_BYTES costs far more than its bytes while it is parsed and expanded (a 10 MB
 * feed of 19,000 events took a compiled worker from 182 to 360 MB resident), and the worker
 * syncs four sources at once: four such feeds at once ran it out of a 128 MB heap, the size Node.js
 * gives a process in a 512Mi container. Small sources, nearly all of them, never wait; a large one
 * waits, holding at most a megabyte, its sender held by TCP's flow control, and the wait counts
 * toward its CALENDAR_SYNC_TIMEOUT_MS.
 */
export const LARGE_READ_BYTES = 1024 * 1024;

export class LargeReads {
  private busy = false;
  private readonly waiting: (() => void)[] = [];

  /** Waits for the turn (or the signal), and answers how to give it up (once; later calls do nothing). */
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
