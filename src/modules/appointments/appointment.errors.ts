import { InvalidAttributeError } from '../../common/errors/domain-error';
import { MAX_APPOINTMENT_MINUTES } from '../availability';

/*
 * The errors of booking and of the changes of a booked appointment, with the contract's codes.
 * Those that availability gives too (a parameter left out, a time that cannot be booked) are
 * availability's.
 */

/** The codes of an attribute's errors: left out (the client's details only), or a wrong value. */
const ATTRIBUTE_CODES = {
  firstName: { required: 'required_first_name', invalid: 'invalid_first_name' },
  lastName: { required: 'required_last_name', invalid: 'invalid_last_name' },
  email: { required: 'required_email', invalid: 'invalid_email' },
  phone: { required: 'required_phone', invalid: 'invalid_phone' },
  notes: { invalid: 'invalid_notes' },
  addonIDs: { invalid: 'invalid_addon_ids' },
  labels: { invalid: 'invalid_labels' },
} as const;

/** A client detail left out, or blank. */
export class RequiredAttributeError extends InvalidAttributeError {
  constructor(attribute: 'firstName' | 'lastName' | 'email' | 'phone') {
    super(ATTRIBUTE_CODES[attribute].required, `Attribute "${attribute}" is required.`);
  }
}

/** A value the attribute cannot take: an e-mail that is none, a name longer than its column, … */
export class InvalidValueError extends InvalidAttributeError {
  constructor(attribute: keyof typeof ATTRIBUTE_CODES) {
    super(ATTRIBUTE_CODES[attribute].invalid, `Invalid "${attribute}" attribute value.`);
  }
}

/**
 * An admin's booking longer than busy time is read for (clients are told `not_available`): see
 * MAX_BUSY_SPAN_MINUTES.
 */
export class AppointmentTooLongError extends InvalidAttributeError {
  constructor() {
    super(
      'invalid_addon_ids',
      `An appointment lasts at most ${MAX_APPOINTMENT_MINUTES} minutes, addons included.`,
    );
  }
}

/** An appointment carries one label at most. */
export class TooManyLabelsError extends InvalidAttributeError {
  constructor() {
    super('invalid_labels', 'Only one label can be applied to an appointment.');
  }
}

/** A label that is not a live label of the account. */
export class UnknownLabelError extends InvalidAttributeError {
  constructor(id: number) {
    super('invalid_labels', `The label "${id}" does not exist.`);
  }
}

/** A canceled appointment can be neither canceled again nor moved. */
export class AlreadyCanceledError extends InvalidAttributeError {
  constructor(id: number) {
    super('already_canceled', `The appointment "${id}" is already canceled.`);
  }
}

/**
 * A client may cancel or move only an appointment that has not started, and not within the
 * account's `clientChangeMinHours` of its start (the Appointment object's
 * `canClientCancel`/`canClientReschedule`); an admin may do both at any time.
 */
export class ClientChangeClosedError extends InvalidAttributeError {
  constructor(action: 'cancel' | 'reschedule', id: number, started: boolean, minHours: number) {
    super(
      `${action}_not_allowed`,
      started
        ? `The appointment "${id}" has already started; only an admin can ${action} it.`
        : `The appointment "${id}" starts in less than ${minHours} hour${minHours === 1 ? '' : 's'}; only an admin can ${action} it.`,
    );
  }
}

/** Throws when a client may no longer cancel or move the appointment (see clientMayChange). */
export function assertClientMayChange(
  action: 'cancel' | 'reschedule',
  appointment: { id: number; startsAt: Date },
  minHours: number,
  now: number,
): void {
  const start = appointment.startsAt.getTime();
  if (start <= now) throw new ClientChangeClosedError(action, appointment.id, true, minHours);
  if (start - minHours * 3_600_000 <= now)
    throw new ClientChangeClosedError(action, appointment.id, false, minHours);
}

export class InvalidIdempotencyKeyError extends InvalidAttributeError {
  constructor() {
    super(
      'invalid_idempotency_key',
      'The "Idempotency-Key" header must be 1 to 255 visible ASCII characters.',
    );
  }
}

/** The key of a booking, sent again with another request. */
export class IdempotencyKeyReusedError extends InvalidAttributeError {
  constructor() {
    super('idempotency_key_reused', 'This Idempotency-Key was used for a different request.');
  }
}

/** A `field:ID=value` filter of GET /appointments that is not one. */
export class InvalidFieldFilterError extends InvalidAttributeError {
  constructor(parameter: string) {
    super('invalid_field', `Invalid "${parameter}" parameter value.`);
  }
}

/** A canceled appointment takes refunds, not payments. */
export class PaymentOnCanceledError extends InvalidAttributeError {
  constructor(id: number) {
    super(
      'appointment_canceled',
      `The appointment "${id}" is canceled: only a refund (a negative amount) can be recorded.`,
    );
  }
}
