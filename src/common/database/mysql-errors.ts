import { QueryFailedError } from 'typeorm';

const ER_DUP_ENTRY = 1062;
const ER_LOCK_WAIT_TIMEOUT = 1205;
const ER_LOCK_DEADLOCK = 1213;
const ER_NO_REFERENCED_ROW_2 = 1452;

function errnoOf(e: unknown): number | undefined {
  return e instanceof QueryFailedError
    ? (e.driverError as { errno?: number } | undefined)?.errno
    : undefined;
}

export function isDuplicateEntry(e: unknown): boolean {
  return errnoOf(e) === ER_DUP_ENTRY;
}

/**
 * Which lock conflict `e` is, if it is one: InnoDB gave up on a lock (deadlock victim or wait
 * timeout) or Galera's certification refused the write set (a deadlock): the transaction may be
 * retried.
 */
/** Why the database gave up on a transaction (the `reason` of `db_transaction_retries_total`). */
export type LockConflict = 'deadlock' | 'lock_wait_timeout';

export function lockConflictOf(e: unknown): LockConflict | undefined {
  const errno = errnoOf(e);
  if (errno === ER_LOCK_DEADLOCK) return 'deadlock';
  if (errno === ER_LOCK_WAIT_TIMEOUT) return 'lock_wait_timeout';
  return undefined;
}

/** A foreign key refused the write: the row it refers to does not exist (any more). */
export function isMissingParentRow(e: unknown): boolean {
  return errnoOf(e) === ER_NO_REFERENCED_ROW_2;
}
