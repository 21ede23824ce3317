import { type LockConflict, lockConflictOf } from './mysql-errors';

/** A deadlock victim or a lock wait timeout is tried again this many times, then fails (500). */
const LOCK_RETRIES = 3;

/**
 * Runs `attempt` (one whole transaction) again when the database gave up on it: InnoDB chose it as
 * a deadlock victim or its lock wait timed out, or (on a Galera cluster) its write set failed
 * certification against another node's, which MariaDB reports as a deadlock (1213) at any statement
 * or at COMMIT. `onRetry` hears each retry (the metrics count them).
 */
export async function retryLockConflicts<T>(
  attempt: () => Promise<T>,
  onRetry: (reason: LockConflict) => void = () => undefined,
): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (e) {
      const reason = lockConflictOf(e);
      if (reason === undefined || tries > LOCK_RETRIES) throw e;
      onRetry(reason);
    }
  }
}
