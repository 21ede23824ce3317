import { DomainError } from '../../common/errors/domain-error';
import type { BookingInput } from './book-appointment.requests';
import { checkBookingRequest } from './booking-checks';

/* What the specs of the booking checks share: a valid body, the modes, and the refusal a check throws. */

export const NY = 'America/New_York';

export const valid: BookingInput = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  appointmentTypeID: 7,
  datetime: '2030-06-03T10:00',
};

export const client = { admin: false, requirePhone: false };
export const admin = { admin: true, requirePhone: false };

/** The error a check throws, as the exception filter writes it; fails when nothing is thrown. */
export function refusal(check: () => unknown): {
  status_code: number;
  error: string;
  message: string;
} {
  try {
    check();
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    return { status_code: e.status, error: e.code, message: e.message };
  }
  throw new Error('expected the check to refuse');
}

export const error = (code: string, message: string) => ({
  status_code: 400,
  error: code,
  message,
});

export const request =
  (changes: Partial<BookingInput>, mode = client) =>
  () =>
    checkBookingRequest({ ...valid, ...changes }, mode);
