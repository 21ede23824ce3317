import { setTimeout as sleep } from 'node:timers/promises';
import { type LockConflict, lockConflictOf } from './mysql-errors';

/**
 * How many times a transaction the database gave up on runs again, by reason. A deadlock victim or
 * a Galera certification failure (both 1213) failed at once, with nothing left behind: on a
 * multi-primary cluster, writers of one calendar on several nodes lose to each other often (each
 * loser certified against the winner), so a loser runs again up to 10 times. A lock wait timeout
 * (1205) waited `innodb_lock_wait_timeout` first: 3 retries.
 */
export const MAX_RETRIES: Record<LockConflict, number> = { deadlock: 10, lock_wait_timeout: 3 };

/**
 * The pause before retry `n` (from 1): a random time up to 2^n ms, capped at 100 ms ("full
 * jitter"). Losers of one race that ran again at once would meet again; spread out, one of them
 * commits while the others wait, then they read its rows and answer (most often a refusal).
 */
export function retryDelayMs(n: number, random = Math.random): number {
  return Math.floor(random() * Math.min(2 ** n, 100));
}

/**
 * Runs `attempt` (one whole transaction) again when the database gave up on it: InnoDB chose it as
 * a deadlock victim or its lock wait timed out, or (on a Galera cluster) its write set failed
 * certification against another node's, which MariaDB reports as a deadlock (1213) at any statement
 * or at COMMIT. `onRetry` hears each retry (the metrics count them). Past MAX_RETRIES of its
 * reason, the last error is thrown (500).
 */
export async function retryLockConflicts<T>(
  attempt: () => Promise<T>,
  onRetry: (reason: LockConflict) => void = () => undefined,
  pause: (ms: number) => Promise<unknown> = sleep,
): Promise<T> {
  const retries: Record<LockConflict, number> = { deadlock: 0, lock_wait_timeout: 0 };
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (e) {
      const reason = lockConflictOf(e);
      if (reason === undefined || retries[reason] >= MAX_RETRIES[reason]) throw e;
      retries[reason]++;
      onRetry(reason);
      await pause(retryDelayMs(n));
    }
  }
}
