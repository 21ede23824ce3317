import { Allow } from 'class-validator';
import type { Account } from '../accounts';
import { BookAppointmentRequest, type BookingMode } from './book-appointment.requests';

/** `POST /appointment-series`: a booking's body, for its first occurrence, and how it repeats. */
export class BookSeriesRequest extends BookAppointmentRequest {
  /** `{frequency, interval?, count}`, read by readRecurrence. */
  @Allow()
  recurrence?: unknown;
}

/** `POST /availability/check-series`: the series without its client. */
export class CheckSeriesRequest {
  @Allow()
  appointmentTypeID?: unknown;

  @Allow()
  calendarID?: unknown;

  @Allow()
  datetime?: unknown;

  @Allow()
  timezone?: unknown;

  @Allow()
  addonIDs?: unknown;

  @Allow()
  recurrence?: unknown;

  /** The first occurrence's hold, which the client's own check must not count against them. */
  @Allow()
  holdToken?: unknown;
}

/** A series to book, as its handler reads it. */
export interface SeriesBooking {
  account: Account;
  request: BookSeriesRequest;
  mode: BookingMode;
}
