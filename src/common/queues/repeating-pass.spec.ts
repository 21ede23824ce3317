import type { Logger } from 'pino';
import { RepeatingPass } from './repeating-pass';

describe('RepeatingPass', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function logger() {
    return { info: jest.fn(), warn: jest.fn() };
  }

  /** Passes that take `counts` rows in turn (an Error: the pass fails), then none. */
  function passesTaking(counts: (number | Error)[]) {
    const calls: number[] = [];
    const pass = jest.fn(() => {
      calls.push(Date.now());
      const next = counts.shift() ?? 0;
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    });
    return { pass, calls };
  }

  function start(pass: () => Promise<number>, log: ReturnType<typeof logger>, delayMs = 0) {
    const passes = new RepeatingPass(pass, {
      batchSize: 10,
      intervalMs: 1000,
      logger: log as unknown as Logger,
      tookRows: 'took rows',
      failed: 'pass failed',
    });
    passes.start(delayMs);
    return passes;
  }

  it('goes again at once after a full batch, else after the interval; logs a pass that took rows', async () => {
    const log = logger();
    const { pass, calls } = passesTaking([10, 3, 0]);
    const passes = start(pass, log, 500);
    const t0 = Date.now();
    await jest.advanceTimersByTimeAsync(2501);
    await passes.stop();
    // "At once" is a timeout of 0, which Node runs after 1 ms.
    expect(calls.map((t) => t - t0)).toEqual([500, 501, 1501, 2501]);
    expect(log.info.mock.calls).toEqual([
      [{ count: 10 }, 'took rows'],
      [{ count: 3 }, 'took rows'],
    ]);
  });

  it('logs a failed pass and tries again after the interval', async () => {
    const log = logger();
    const failure = new Error('down');
    const { pass, calls } = passesTaking([failure, 1]);
    const passes = start(pass, log);
    const t0 = Date.now();
    await jest.advanceTimersByTimeAsync(1000);
    await passes.stop();
    expect(calls.map((t) => t - t0)).toEqual([0, 1000]);
    expect(log.warn.mock.calls).toEqual([[{ err: failure }, 'pass failed']]);
  });

  it('stop() waits for the pass in flight and starts no other', async () => {
    let finish: (count: number) => void = () => undefined;
    const pass = jest.fn(() => new Promise<number>((resolve) => (finish = resolve)));
    const passes = start(pass, logger());
    await jest.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = passes.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish(10);
    await stopping;
    await jest.advanceTimersByTimeAsync(5000);
    expect(pass).toHaveBeenCalledTimes(1);
  });
});
