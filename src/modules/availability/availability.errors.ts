import { AttributeError, InvalidAttributeError } from '../../common/errors/domain-error';
import type { Unavailable } from './slot-engine';

/* The errors of availability and blocks, with the contract's codes (booking's too, for a time). */

/** A datetime that cannot be read (for an admin, also a local time that a DST change skips). */
export { InvalidDatetimeError } from '../../common/time/time.errors';

const NOT_AVAILABLE_MESSAGES: Record<Unavailable, (datetime: string) => string> = {
  not_available_min_hours_in_advance: (datetime) =>
    `The time "${datetime}" is not far enough in advance.`,
  not_available_max_days_in_advance: (datetime) => `The time "${datetime}" is too far in advance.`,
  not_available: (datetime) => `The time "${datetime}" is not an available time slot.`,
};

/** A time that cannot be booked; the slot engine's reason is the contract's code. */
export class NotAvailableError extends InvalidAttributeError {
  constructor(reason: Unavailable, datetime: string) {
    super(reason, NOT_AVAILABLE_MESSAGES[reason](datetime));
  }
}

/** No calendar of the type can take the time (asked without a calendar). */
export class NoAvailableCalendarError extends AttributeError(
  'no_available_calendar',
  () => 'We could not find an available calendar.',
) {}

/** An addon of the account that the type is not offered with. */
export class AddonNotOfferedError extends AttributeError(
  'invalid_addon',
  (addonId: number, typeId: number) =>
    `The addon "${addonId}" is not offered with appointment type "${typeId}".`,
) {}

/** `/availability/classes` asked about a type that is a service. */
export class NotAClassError extends AttributeError(
  'invalid_appointment_type',
  (typeId: number) => `The appointment type "${typeId}" is not a class.`,
) {}

/** More items in one `POST /availability/check-times` than it checks. */
export class TooManyTimesError extends AttributeError(
  'bad_request',
  (max: number) => `At most ${max} times can be checked at once.`,
) {}

export class InvalidMonthError extends AttributeError(
  'invalid_month',
  (month: string) => `The month "${month}" is invalid.`,
) {}

export type InvalidDateCode = 'invalid_date' | 'invalid_min_date' | 'invalid_max_date';

/** A date (`YYYY-MM-DD`) that is no day of the calendar. */
export class InvalidDateError extends InvalidAttributeError {
  constructor(code: InvalidDateCode, date: string) {
    super(code, `The date "${date}" is invalid.`);
  }
}

/** A list's dates the wrong way round (blocks, appointments). */
export class MaxDateBeforeMinDateError extends AttributeError(
  'invalid_max_date',
  (minDate: string, maxDate: string) =>
    `The maxDate "${maxDate}" is before the minDate "${minDate}".`,
) {}

/** A block's `start` or `end` that is no moment a DATETIME column holds. */
export class InvalidBlockDatetimeError extends InvalidAttributeError {
  constructor(attribute: 'start' | 'end', datetime: string) {
    super(`invalid_${attribute}`, `The datetime "${datetime}" is invalid.`);
  }
}

/** A block that ends before it starts, or when it starts: 422, as the contract's POST /blocks. */
export class InvalidBlockTimeError extends InvalidAttributeError {
  constructor(start: string, end: string, relation: 'before' | 'the same as') {
    super('invalid_time', `The end "${end}" is ${relation} the start "${start}".`, 422);
  }
}
