import type { EntityManager } from 'typeorm';
import { isLockConflict } from '../../common/database/mysql-errors';
import { queryPrepared } from '../../common/database/prepared';
import { findReferenced } from '../../common/database/tenant-rows';
import { toId } from '../../common/http/id-list';
import { Label } from '../catalog/label.entity';
import { InvalidAttributeError } from '../../common/errors/domain-error';

/*
 * What booking still has of its own; update, cancel and reschedule moved to AppointmentWrites,
 * AppointmentParts and booking-checks, which booking moves to next.
 */

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

export function blank(value: string | undefined): boolean {
  return value === undefined || value.trim() === '';
}

/** The client's details as long as their columns hold (admins included: MySQL would refuse them). */
const CLIENT_TEXT_LIMITS = { firstName: 255, lastName: 255, email: 254, phone: 64 } as const;
const CLIENT_TEXT_CODES = {
  firstName: 'invalid_first_name',
  lastName: 'invalid_last_name',
  email: 'invalid_email',
  phone: 'invalid_phone',
} as const;

/** Refuses a client detail longer than its column (`invalid_<attribute>`), trimmed as stored. */
export function assertClientTextFits(
  attribute: keyof typeof CLIENT_TEXT_LIMITS,
  value: string | undefined,
): void {
  if (value !== undefined && value.trim().length > CLIENT_TEXT_LIMITS[attribute])
    throw new InvalidAttributeError(
      CLIENT_TEXT_CODES[attribute],
      `Invalid "${attribute}" attribute value.`,
    );
}

/**
 * Locks calendar rows in ascending id order (so that two transactions never wait on each other in
 * a cycle): whoever holds a calendar's lock is the only one checking and writing its time.
 */
export async function lockCalendars(tx: EntityManager, calendarIds: number[]): Promise<void> {
  const ids = [...new Set(calendarIds)].sort((a, b) => a - b);
  if (ids.length > 0)
    await queryPrepared(tx, 'SELECT id FROM calendars WHERE id IN (?) ORDER BY id FOR UPDATE', [
      ids,
    ]);
}

/** `labels: [{id}]` of a booking or an update: at most one, a live label of the account. */
export async function checkLabel(
  manager: EntityManager,
  accountId: number,
  labels: unknown[],
): Promise<Label | null> {
  if (labels.length === 0) return null;
  if (labels.length > 1)
    throw new InvalidAttributeError(
      'invalid_labels',
      'Only one label can be applied to an appointment.',
    );
  const id = toId((labels[0] as { id?: unknown } | null)?.id);
  if (id === undefined)
    throw new InvalidAttributeError('invalid_labels', 'Invalid "labels" attribute value.');
  const [label] = await findReferenced(
    manager,
    Label,
    accountId,
    [id],
    (missing) =>
      new InvalidAttributeError('invalid_labels', `The label "${missing}" does not exist.`),
  );
  return label;
}
