import { DomainError } from '../../common/errors/domain-error';
import { DayHoldShareError, NetworkHoldLimitError } from '../holds';

/** Where a booking's error is shown: next to a control, at the time list, or above the form. */
export type ErrorPlace = string;

export interface PageError {
  /** The control's name (`firstName`, `field:12`, `certificate`, `addonIDs`), `time` or `form`. */
  place: ErrorPlace;
  message: string;
  /** A time that could not be held but may still be booked: the page offers to go on without a hold. */
  unheld?: string;
}

const CLIENT_DETAILS: Record<string, [string, string]> = {
  first_name: ['firstName', 'first name'],
  last_name: ['lastName', 'last name'],
  email: ['email', 'e-mail address'],
  phone: ['phone', 'phone number'],
};

const CERTIFICATE_CODES = new Set([
  'invalid_certificate',
  'expired_certificate',
  'certificate_uses',
  'invalid_certificate_type',
]);

/**
 * The typed errors of the booking and change commands, as the page shows them: next to the
 * control they concern, in words for a person (the API's message where it already is one). An
 * error that is no DomainError is not one of these: the caller lets it through (a 500).
 */
export function pageErrorOf(error: DomainError): PageError {
  const code = error.code;
  const detail = /^(required|invalid)_(first_name|last_name|email|phone)$/.exec(code);
  if (detail) {
    const [place, words] = CLIENT_DETAILS[detail[2]];
    return {
      place,
      message: detail[1] === 'required' ? `Enter your ${words}.` : `Enter a valid ${words}.`,
    };
  }
  const fieldId = (error as DomainError & { fieldId?: unknown }).fieldId;
  if ((code === 'required_field' || code === 'invalid_fields') && typeof fieldId === 'number') {
    const reason = (error as DomainError & { reason?: unknown }).reason;
    return {
      place: `field:${fieldId}`,
      message:
        code === 'required_field'
          ? 'This question needs an answer.'
          : `This answer cannot be used: ${typeof reason === 'string' ? reason : 'it is invalid'}.`,
    };
  }
  if (CERTIFICATE_CODES.has(code)) return { place: 'certificate', message: error.message };
  if (code === 'invalid_addon_ids') return { place: 'addonIDs', message: error.message };
  if (code === 'invalid_hold_token')
    return {
      place: 'time',
      message: 'The time held for you has been released. Please choose a time again.',
    };
  if (error instanceof DayHoldShareError)
    return {
      place: 'time',
      message:
        "Many of this day's times are being held by other visitors right now, so this one " +
        'cannot be held for you.',
    };
  if (error instanceof NetworkHoldLimitError)
    return {
      place: 'time',
      message:
        'Too many times are being held from your network right now, so this one cannot be ' +
        'held for you.',
    };
  if (code.startsWith('not_available') || code === 'no_available_calendar')
    return {
      place: 'time',
      message: 'Sorry, that time is no longer available. Please choose another time.',
    };
  return { place: 'form', message: error.message };
}

/** Whether an error of a command is one to show on the page (a person's mistake or a race). */
export function isShownOnPage(error: unknown): error is DomainError {
  return error instanceof DomainError && error.status < 500;
}
