import { QueryFailedError } from 'typeorm';
import { retryDelayMs, retryLockConflicts } from './lock-retries';
import type { LockConflict } from './mysql-errors';

/** What mysql2 gives TypeORM for an error of the server, with its number. */
const failure = (errno: number) =>
  new QueryFailedError('COMMIT', [], Object.assign(new Error(`errno ${errno}`), { errno }));
/** The pauses asked for, none taken. */
const pauses: number[] = [];
const noPause = (ms: number) => {
  pauses.push(ms);
  return Promise.resolve();
};

describe('retryLockConflicts', () => {
  it('runs the transaction again on a deadlock (a Galera certification failure too) or a lock wait timeout, telling each', async () => {
    const outcomes = [failure(1213), failure(1205)];
    const heard: LockConflict[] = [];
    let attempts = 0;
    const result = await retryLockConflicts(
      () => {
        attempts++;
        const next = outcomes.shift();
        return next ? Promise.reject(next) : Promise.resolve('committed');
      },
      (reason) => heard.push(reason),
      noPause,
    );
    expect(result).toBe('committed');
    expect(attempts).toBe(3);
    expect(heard).toEqual(['deadlock', 'lock_wait_timeout']);
  });

  it.each([
    [1213, 10],
    [1205, 3],
  ])('gives up on errno %d after %d retries with the last error', async (errno, retries) => {
    const heard: LockConflict[] = [];
    let attempts = 0;
    const last = failure(errno);
    await expect(
      retryLockConflicts(
        () => {
          attempts++;
          return Promise.reject(attempts === retries + 1 ? last : failure(errno));
        },
        (reason) => heard.push(reason),
        noPause,
      ),
    ).rejects.toBe(last);
    expect(attempts).toBe(retries + 1);
    expect(heard).toHaveLength(retries);
  });

  it('pauses a random time before each retry, up to 2^n ms and never over 100 ms', () => {
    expect([1, 2, 3, 6, 7, 20].map((n) => retryDelayMs(n, () => 0.999))).toEqual([
      1, 3, 7, 63, 99, 99,
    ]);
    expect(retryDelayMs(5, () => 0)).toBe(0);
    pauses.length = 0;
    return retryLockConflicts(
      () => (pauses.length < 2 ? Promise.reject(failure(1213)) : Promise.resolve('ok')),
      undefined,
      noPause,
    ).then(() => expect(pauses).toHaveLength(2));
  });

  it('never runs again what failed otherwise (a duplicate key, an error of the code)', async () => {
    for (const error of [failure(1062), new Error('bug')]) {
      let attempts = 0;
      await expect(
        retryLockConflicts(() => {
          attempts++;
          return Promise.reject(error);
        }),
      ).rejects.toBe(error);
      expect(attempts).toBe(1);
    }
  });
});
