import { withTimeout } from './with-timeout';

describe('withTimeout', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('answers what the promise answers, and leaves no timer behind', async () => {
    await expect(withTimeout(Promise.resolve(42), 1000, 'too slow')).resolves.toBe(42);
    expect(jest.getTimerCount()).toBe(0);
  });

  it("passes the promise's own rejection on, and leaves no timer behind", async () => {
    await expect(
      withTimeout(Promise.reject(new Error('refused')), 1000, 'too slow'),
    ).rejects.toThrow('refused');
    expect(jest.getTimerCount()).toBe(0);
  });

  it('rejects with the message once the time has passed, not before', async () => {
    const never = new Promise<number>(() => undefined);
    let settled: unknown;
    const waiting = withTimeout(never, 1000, 'Timed out waiting for Redis').catch((e: Error) => {
      settled = e.message;
    });
    await jest.advanceTimersByTimeAsync(999);
    expect(settled).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    await waiting;
    expect(settled).toBe('Timed out waiting for Redis');
    expect(jest.getTimerCount()).toBe(0);
  });
});
