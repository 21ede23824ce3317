import { Allow, IsArray, IsBoolean } from 'class-validator';
import { IfGiven } from '../../common/http/attributes';
import type { Language } from '../../common/i18n/languages';
import type { Account } from '../accounts';

/** `POST /appointments`: lists' and flags' JSON types; the handler checks the rest, in order. */
export class BookAppointmentRequest {
  @Allow()
  firstName?: unknown;

  @Allow()
  lastName?: unknown;

  @Allow()
  email?: unknown;

  @Allow()
  phone?: unknown;

  /** An integer, or its digits. */
  @Allow()
  appointmentTypeID?: unknown;

  @Allow()
  calendarID?: unknown;

  @Allow()
  datetime?: unknown;

  @Allow()
  timezone?: unknown;

  @Allow()
  certificate?: unknown;

  /** `[{id, value}]`. */
  @IfGiven(IsArray())
  fields?: unknown[];

  /** Admins only; ignored for client bookings. */
  @Allow()
  notes?: unknown;

  /** An id or a list of ids, in any of the shapes lists are sent in. */
  @Allow()
  addonIDs?: unknown;

  /** `[{id}]`, at most one. */
  @IfGiven(IsArray())
  labels?: unknown[];

  @IfGiven(IsBoolean())
  smsOptIn?: boolean;

  /** The token of the client's own slot hold (`POST /slot-holds`): the held time is theirs. */
  @Allow()
  holdToken?: unknown;
}

/** `?admin=true&noEmail=true`; a client page's booking says its language too. */
export interface BookingMode {
  admin: boolean;
  noEmail: boolean;
  /** The language the client booked in (stored on every appointment booked); none from the API. */
  language?: Language;
}

/** A query flag as the booking routes read it: `true` or `1`. */
export const queryFlag = (value: unknown): boolean => value === 'true' || value === '1';

/** `?admin=` and `?noEmail=` of a booking, a change or a series. */
export function bookingModeOf(admin: unknown, noEmail: unknown): BookingMode {
  return { admin: queryFlag(admin), noEmail: queryFlag(noEmail) };
}

/** The text attributes of a booking as the handler checks them. */
export interface BookingInput extends Omit<
  BookAppointmentRequest,
  'firstName' | 'lastName' | 'email' | 'phone' | 'timezone' | 'certificate' | 'notes' | 'holdToken'
> {
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
  timezone?: string;
  certificate?: string;
  notes?: string;
  holdToken?: string;
}

/** A booking as the handler reads it: the account that books, what it asks for, and how. */
export interface Booking {
  account: Account;
  input: BookingInput;
  mode: BookingMode;
}

/** `null` is not given; another JSON value is read as its text (and refused by the checks). */
function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function bookingInput(request: BookAppointmentRequest): BookingInput {
  return {
    ...request,
    // A name that is not text is no name: `required_first_name`.
    firstName: typeof request.firstName === 'string' ? request.firstName : undefined,
    lastName: typeof request.lastName === 'string' ? request.lastName : undefined,
    email: text(request.email),
    phone: text(request.phone),
    timezone: text(request.timezone),
    certificate: text(request.certificate),
    notes: typeof request.notes === 'string' ? request.notes : undefined,
    holdToken: text(request.holdToken),
  };
}
