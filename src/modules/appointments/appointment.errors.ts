import {
  AttributeError,
  type DomainError,
  InvalidAttributeError,
} from '../../common/errors/domain-error';
import { MAX_APPOINTMENT_MINUTES } from '../availability';

/* The errors of booking and of changes, with the contract's codes (see also availability's). */

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

/** An admin's booking longer than busy time is read for (MAX_BUSY_SPAN_MINUTES). */
export class AppointmentTooLongError extends AttributeError(
  'invalid_addon_ids',
  () => `An appointment lasts at most ${MAX_APPOINTMENT_MINUTES} minutes, addons included.`,
) {}

export class TooManyLabelsError extends AttributeError(
  'invalid_labels',
  () => 'Only one label can be applied to an appointment.',
) {}

export class UnknownLabelError extends AttributeError(
  'invalid_labels',
  (id: number) => `The label "${id}" does not exist.`,
) {}

/** A canceled appointment can be neither canceled again nor moved. */
export class AlreadyCanceledError extends AttributeError(
  'already_canceled',
  (id: number) => `The appointment "${id}" is already canceled.`,
) {}

/** A client's change within `clientChangeMinHours` of the start (an admin's is always allowed). */
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

export class InvalidIdempotencyKeyError extends AttributeError(
  'invalid_idempotency_key',
  () => 'The "Idempotency-Key" header must be 1 to 255 visible ASCII characters.',
) {}

export class IdempotencyKeyReusedError extends AttributeError(
  'idempotency_key_reused',
  () => 'This Idempotency-Key was used for a different request.',
) {}

/** A `field:ID=value` filter of GET /appointments that is not one. */
export class InvalidFieldFilterError extends AttributeError(
  'invalid_field',
  (parameter: string) => `Invalid "${parameter}" parameter value.`,
) {}

export class PaymentOnCanceledError extends AttributeError(
  'appointment_canceled',
  (id: number) =>
    `The appointment "${id}" is canceled: only a refund (a negative amount) can be recorded.`,
) {}

/** A series' `recurrence` that cannot be read, or that reaches a day a month lacks. */
export class InvalidRecurrenceError extends AttributeError(
  'invalid_recurrence',
  (message: string) => message,
) {}

/**
 * A series refused whole: the error of its first refused occurrence (its code, status and message,
 * naming its datetime), with every refused occurrence's datetime in `unavailable`.
 */
export class SeriesUnavailableError extends InvalidAttributeError {
  override readonly details: { unavailable: string[] };

  constructor(first: DomainError, unavailable: string[]) {
    super(first.code, first.message, first.status);
    this.details = { unavailable };
  }
}
