import { shown } from '../../common/errors/domain-error';
import { toId, toIdList } from '../../common/http/id-list';
import { RequiredParameterError } from '../../common/http/required-parameter';
import {
  isEmailAddress,
  isMultiLineText,
  isPhoneNumber,
  isSingleLineText,
} from '../../common/http/text-rules';
import { parseDatetime } from '../../common/time/datetimes';
import { assertTimezone } from '../accounts';
import {
  InvalidDatetimeError,
  MAX_APPOINTMENT_MINUTES,
  NotAvailableError,
  type SlotRequest,
  slotRequestOf,
} from '../availability';
import type { FieldValueInput } from '../forms';
import {
  AppointmentTooLongError,
  InvalidValueError,
  RequiredAttributeError,
} from './appointment.errors';
import type { BookingInput } from './book-appointment.requests';

/*
 * The checks of a booking that need no database, in the contract's order of errors, around those
 * that do: checkBookingRequest → the slot context → checkBookingTime → the forms' answers → the
 * label → startOf. Update and reschedule check what they are given with the same pieces.
 */

/**
 * The client's details, then the shape of the ids booked. Whoever books, the details are what their
 * columns hold and a message may quote: one line each, the e-mail one address (an admin may leave
 * it out), the phone a phone number; an admin's notes keep their line breaks only (text-rules.ts).
 */
export function checkBookingRequest(
  r: BookingInput,
  { admin, requirePhone }: { admin: boolean; requirePhone: boolean },
): SlotRequest {
  requireText('firstName', r.firstName);
  requireText('lastName', r.lastName);
  assertClientName('firstName', r.firstName);
  assertClientName('lastName', r.lastName);
  checkEmail(r.email, admin);
  if (!admin && requirePhone) requireText('phone', r.phone);
  assertPhone(r.phone);
  if (admin) assertNotes(r.notes);
  const slot = slotRequestOf(r);
  if (admin && slot.calendarID === undefined) throw new RequiredParameterError('calendarID');
  return { ...slot, addonIDs: addonIdsOf(r.addonIDs) };
}

/** The ids a booking asks for: its type, calendar and addons (checkBookingRequest's last part). */
export function bookingSlot(
  r: Pick<BookingInput, 'appointmentTypeID' | 'calendarID' | 'datetime' | 'addonIDs'>,
): SlotRequest {
  return { ...slotRequestOf(r), addonIDs: addonIdsOf(r.addonIDs) };
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
 * Once the slot context is resolved: an admin's booking no longer than busy time is read for, then
 * the client's zone and the datetime, read in `zone` (the calendar's if named, else the account's).
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

/** The start of a time that happens (no calendar can take a local time a DST change skips). */
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

/**
 * The client's e-mail: one address, trimmed as stored (not a list, a group, a display name, a line
 * break). A client must give one; an admin may leave it out (stored "").
 */
export function checkEmail(email: string | undefined, admin: boolean): void {
  if (admin && blank(email)) return;
  requireText('email', email);
  if (!isEmailAddress(email.trim())) throw new InvalidValueError('email');
}

/** The longest name its column holds (admins included: MySQL would refuse a longer one). */
const MAX_NAME_LENGTH = 255;

/** A name given: one line that its column holds, trimmed as stored (`invalid_<attribute>`). */
export function assertClientName(
  attribute: 'firstName' | 'lastName',
  value: string | undefined,
): void {
  if (value === undefined) return;
  const name = value.trim();
  if (name.length > MAX_NAME_LENGTH || !isSingleLineText(name))
    throw new InvalidValueError(attribute);
}

/** A phone given (blank is none): a phone number, trimmed as stored (`invalid_phone`). */
export function assertPhone(value: string | undefined): void {
  const phone = value?.trim() ?? '';
  if (phone !== '' && !isPhoneNumber(phone)) throw new InvalidValueError('phone');
}

/** An admin's notes: line breaks kept, no other control (`invalid_notes`). */
export function assertNotes(value: string | undefined): void {
  if (value !== undefined && !isMultiLineText(value)) throw new InvalidValueError('notes');
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
