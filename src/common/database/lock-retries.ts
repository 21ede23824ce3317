import { isLockConflict } from './mysql-errors';

/** A deadlock victim or a lock wait timeout is tried again this many times, then fails (500). */
const LOCK_RETRIES = 3;

/** Runs `attempt` (one whole transaction) again when InnoDB gave up on a lock. */
export async function retryLockConflicts<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (e) {
      if (!isLockConflict(e) || tries > LOCK_RETRIES) throw e;
    }
  }
}
