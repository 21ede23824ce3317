import { isLockConflict } from '../../common/database/mysql-errors';
import { InvalidAttributeError } from '../../common/errors/domain-error';
import type { AppointmentEventPayload } from './appointment-events';
import type { Appointment } from './appointment.entity';

/*
 * What booking and the changes of a booked appointment (update, cancel, reschedule) share, so that
 * they answer with the same codes and messages.
 */

export const MINUTE = 60_000;

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

/** `?admin=true&noEmail=true` of a change. */
export interface ChangeMode {
  admin: boolean;
  noEmail: boolean;
}

export function eventPayload(appointment: Appointment, noEmail: boolean): AppointmentEventPayload {
  return {
    appointmentId: appointment.id,
    calendarId: appointment.calendarId,
    appointmentTypeId: appointment.appointmentTypeId,
    noEmail,
  };
}

/** A canceled appointment can be neither canceled again nor moved. */
export class AlreadyCanceledError extends InvalidAttributeError {
  constructor(id: number) {
    super('already_canceled', `The appointment "${id}" is already canceled.`);
  }
}

/**
 * A client may cancel or move only an appointment that has not started (the Appointment object's
 * `canClientCancel`/`canClientReschedule`); an admin may do both at any time.
 */
export class ClientChangeClosedError extends InvalidAttributeError {
  constructor(action: 'cancel' | 'reschedule', id: number) {
    super(
      `${action}_not_allowed`,
      `The appointment "${id}" has already started; only an admin can ${action} it.`,
    );
  }
}

export function blank(value: string | undefined): boolean {
  return value === undefined || value.trim() === '';
}
