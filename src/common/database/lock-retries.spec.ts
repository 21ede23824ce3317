import { QueryFailedError } from 'typeorm';
import { retryLockConflicts } from './lock-retries';
import type { LockConflict } from './mysql-errors';

/** What mysql2 gives TypeORM for an error of the server, with its number. */
const failure = (errno: number) =>
  new QueryFailedError('COMMIT', [], Object.assign(new Error(`errno ${errno}`), { errno }));

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
    );
    expect(result).toBe('committed');
    expect(attempts).toBe(3);
    expect(heard).toEqual(['deadlock', 'lock_wait_timeout']);
  });

  it('gives up after 3 retries with the last error', async () => {
    const heard: LockConflict[] = [];
    let attempts = 0;
    const last = failure(1213);
    await expect(
      retryLockConflicts(
        () => {
          attempts++;
          return Promise.reject(attempts === 4 ? last : failure(1213));
        },
        (reason) => heard.push(reason),
      ),
    ).rejects.toBe(last);
    expect(attempts).toBe(4);
    expect(heard).toHaveLength(3);
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
