import { Allow, IsArray, IsBoolean, IsString } from 'class-validator';
import { Optional } from '../../common/http/attributes';

/**
 * `POST /appointments`. Only the JSON types are checked here; which attribute is missing or wrong,
 * and in what order, is the handler's (the contract fixes the precedence of its errors).
 */
export class BookAppointmentRequest {
  @Optional()
  @IsString()
  firstName?: string;

  @Optional()
  @IsString()
  lastName?: string;

  @Optional()
  @IsString()
  email?: string;

  @Optional()
  @IsString()
  phone?: string;

  /** An integer, or its digits. */
  @Allow()
  appointmentTypeID?: unknown;

  @Allow()
  calendarID?: unknown;

  @Allow()
  datetime?: unknown;

  @Optional()
  @IsString()
  timezone?: string;

  @Optional()
  @IsString()
  certificate?: string;

  /** `[{id, value}]`. */
  @Optional()
  @IsArray()
  fields?: unknown[];

  /** Admins only; ignored for client bookings. */
  @Optional()
  @IsString()
  notes?: string;

  /** An id or a list of ids, in any of the shapes lists are sent in. */
  @Allow()
  addonIDs?: unknown;

  /** `[{id}]`, at most one. */
  @Optional()
  @IsArray()
  labels?: unknown[];

  @Optional()
  @IsBoolean()
  smsOptIn?: boolean;
}

/** `?admin=true&noEmail=true`. */
export interface BookingMode {
  admin: boolean;
  noEmail: boolean;
}
