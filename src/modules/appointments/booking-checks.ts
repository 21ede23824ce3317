import { shown } from '../../common/errors/domain-error';
import { toId, toIdList } from '../../common/http/id-list';
import { RequiredParameterError } from '../../common/http/required-parameter';
import { parseDatetime } from '../../common/time/datetimes';
import { assertTimezone } from '../accounts';
import {
  InvalidDatetimeError,
  MAX_APPOINTMENT_MINUTES,
  NotAvailableError,
  type SlotRequest,
  slotRequestOf,
} from '../availability';
import { CLIENT_TEXT_LIMITS, isClientEmail } from '../clients';
import type { FieldValueInput } from '../forms';
import {
  AppointmentTooLongError,
  InvalidValueError,
  RequiredAttributeError,
} from './appointment.errors';
import type { BookingInput } from './book-appointment.request';

/*
 * The checks of a booking that need no database, in the contract's order of errors. The booking
 * runs them around those that do:
 *   checkBookingRequest → the type, calendar and addons resolved → checkBookingTime → the forms'
 *   answers → the label → startOf.
 * Update and reschedule check what they are given with the same pieces.
 */

/** The client's details, then the ids of what is booked (their shape: not yet whether they exist). */
export function checkBookingRequest(
  r: BookingInput,
  { admin, requirePhone }: { admin: boolean; requirePhone: boolean },
): SlotRequest {
  requireText('firstName', r.firstName);
  requireText('lastName', r.lastName);
  assertClientTextFits('firstName', r.firstName);
  assertClientTextFits('lastName', r.lastName);
  if (!admin) {
    checkClientEmail(r.email);
    if (requirePhone) requireText('phone', r.phone);
  }
  assertClientTextFits('email', r.email);
  assertClientTextFits('phone', r.phone);
  const slot = slotRequestOf(r);
  if (admin && slot.calendarID === undefined) throw new RequiredParameterError('calendarID');
  return { ...slot, addonIDs: addonIdsOf(r.addonIDs) };
}

/** When a booking is, as the checks after its type and calendar were resolved settle it. */
export interface BookingTime {
  /** The client's zone as IANA spells it, when one was given. */
  timezone: string | undefined;
  /** The datetime as sent, as messages quote it. */
  datetimeText: string;
  /** Epoch milliseconds; null for a local time that a DST change skips. */
  start: number | null;
}

/**
 * Once the type, calendar and addons are resolved: an admin's booking no longer than busy time is
 * read for, then the client's zone and the datetime, read in `zone` (the calendar's when one was
 * named, else the account's).
 */
export function checkBookingTime(
  r: BookingInput,
  { admin, duration, zone }: { admin: boolean; duration: number; zone: string },
): BookingTime {
  // Busy time is read on index ranges bounded by the longest busy span (MAX_BUSY_SPAN_MINUTES): a
  // longer appointment would escape them and be double-booked. Clients get not_available instead.
  if (admin && duration > MAX_APPOINTMENT_MINUTES) throw new AppointmentTooLongError();
  return readBookingTime(r, zone, admin);
}

/** The client's zone, then `datetime` read in `zone`, as booking and rescheduling read them. */
export function readBookingTime(
  { datetime, timezone }: { datetime?: unknown; timezone?: string },
  zone: string,
  admin: boolean,
): BookingTime {
  const clientZone = timezone === undefined ? undefined : assertTimezone(timezone);
  const datetimeText = shown(datetime);
  const parsed =
    typeof datetime === 'string' ? parseDatetime(datetime, zone) : ({ kind: 'invalid' } as const);
  if (parsed.kind === 'invalid' || (admin && parsed.kind === 'nonexistent'))
    throw new InvalidDatetimeError(datetimeText);
  const start = parsed.kind === 'nonexistent' ? null : parsed.moment.toMillis();
  return { timezone: clientZone, datetimeText, start };
}

/** The start of a time that happens: a local time a DST change skips never does, no calendar can take it. */
export function startOf(time: BookingTime): number {
  if (time.start === null) throw new NotAvailableError('not_available', time.datetimeText);
  return time.start;
}

export function blank(value: string | undefined): boolean {
  return value === undefined || value.trim() === '';
}

/** A client detail that must be given, and not blank. */
export function requireText(
  attribute: 'firstName' | 'lastName' | 'email' | 'phone',
  value: string | undefined,
): asserts value is string {
  if (blank(value)) throw new RequiredAttributeError(attribute);
}

/** A client's e-mail: required, and an e-mail. */
export function checkClientEmail(email: string | undefined): void {
  requireText('email', email);
  if (!isClientEmail(email.trim())) throw new InvalidValueError('email');
}

/**
 * Refuses a client detail longer than its column (`invalid_<attribute>`), trimmed as stored; admins
 * included (MySQL would refuse it).
 */
export function assertClientTextFits(
  attribute: keyof typeof CLIENT_TEXT_LIMITS,
  value: string | undefined,
): void {
  if (value !== undefined && value.trim().length > CLIENT_TEXT_LIMITS[attribute])
    throw new InvalidValueError(attribute);
}

/** `addonIDs` in any of the shapes lists are sent in; `invalid_addon_ids` for what are not ids. */
function addonIdsOf(value: unknown): number[] {
  const list = toIdList(value);
  const ids = list === undefined || list === null ? [] : list;
  if (!Array.isArray(ids) || !ids.every((id) => toId(id) !== undefined))
    throw new InvalidValueError('addonIDs');
  return ids as number[];
}

/** `fields: [{id, value}]` as the forms validator reads them; anything else is an id without a value. */
export function fieldInputs(fields: unknown[]): FieldValueInput[] {
  return fields.map((f) =>
    typeof f === 'object' && f !== null
      ? (f as { id: unknown; value: unknown })
      : { id: f, value: undefined },
  );
}
