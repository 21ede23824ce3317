import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsString, Max, Min } from 'class-validator';
import { IsId, MAX_ID } from '../../common/http/id-attribute';
import { InvalidFieldFilterError } from './appointment.errors';
import { IfGiven, IsCalendarDate } from '../../common/http/attributes';

export const DEFAULT_APPOINTMENT_LIST_MAX = 100;
/** Each appointment listed costs its rendering (forms included): a page is bounded. */
export const MAX_APPOINTMENT_LIST_MAX = 1000;

/**
 * An optional query parameter as clients send it: an empty one (`minDate=`, as the reference's own
 * URL template writes them) is one not given; `convert` reads the rest, and what it cannot read the
 * `validators` refuse (in the order they would be stacked).
 */
export const QueryParam = (
  convert: (value: unknown) => unknown,
  ...validators: PropertyDecorator[]
) =>
  applyDecorators(
    IfGiven(...validators),
    Transform(({ value }: { value: unknown }) => (value === '' ? undefined : convert(value))),
  );

export const asIs = (value: unknown) => value;

const wholeNumber = (value: unknown) =>
  typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;

const upperCase = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value);

const boolean = (value: unknown) =>
  value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;

/**
 * `GET /appointments?max=100&minDate=&maxDate=&calendarID=&appointmentTypeID=&seriesID=&canceled=false
 * &firstName=&lastName=&email=&phone=&excludeForms=&direction=DESC&showall=` (the `field:ID`
 * filters are read apart, see fieldFilters). A bad value is 400 `invalid_<param>`.
 */
export class ListAppointmentsRequest {
  @QueryParam(wholeNumber, Max(MAX_APPOINTMENT_LIST_MAX), Min(1), IsInt())
  max?: number;

  /** First day listed (inclusive), in the zone of the calendar asked for, else the account's. */
  @QueryParam(asIs, IsCalendarDate(), IsString())
  minDate?: string;

  @QueryParam(asIs, IsCalendarDate(), IsString())
  maxDate?: string;

  @QueryParam(wholeNumber, IsId())
  calendarID?: number;

  @QueryParam(wholeNumber, IsId())
  appointmentTypeID?: number;

  /** The occurrences of one series (POST /appointment-series): 404 none, 403 another account's. */
  @QueryParam(wholeNumber, IsId())
  seriesID?: number;

  /** false (default): the live ones only; true: the canceled ones only. */
  @QueryParam(boolean, IsBoolean())
  canceled?: boolean;

  /** Live and canceled together (`canceled` is then not read). */
  @QueryParam(boolean, IsBoolean())
  showall?: boolean;

  @QueryParam(asIs, IsString())
  firstName?: string;

  @QueryParam(asIs, IsString())
  lastName?: string;

  @QueryParam(asIs, IsString())
  email?: string;

  @QueryParam(asIs, IsString())
  phone?: string;

  /** `forms: []` and `formsText: ""`: the answers are not read. */
  @QueryParam(boolean, IsBoolean())
  excludeForms?: boolean;

  /** By start time: DESC (default, the latest first) or ASC. */
  @QueryParam(upperCase, IsIn(['ASC', 'DESC']), IsString())
  direction?: 'ASC' | 'DESC';
}

/** `GET /appointments/{id}?pastFormAnswers=true`. A bad value is 400 `invalid_past_form_answers`. */
export class GetAppointmentRequest {
  /** Its client's earlier answers fill the questions of its forms it left open (PastFormAnswers). */
  @QueryParam(boolean, IsBoolean())
  pastFormAnswers?: boolean;
}

/** `field:ID=value`: appointments whose answer to field ID is `value`. */
export interface FieldFilter {
  fieldId: number;
  value: string;
}

const FIELD_PARAM = /^field:(.*)$/s;

/** The `field:ID=value` parameters of a query string (an empty value filters nothing). */
export function fieldFilters(query: Record<string, unknown>): FieldFilter[] {
  const filters: FieldFilter[] = [];
  for (const [key, value] of Object.entries(query)) {
    const match = FIELD_PARAM.exec(key);
    if (!match || value === '') continue;
    const fieldId = wholeNumber(match[1]);
    if (typeof fieldId !== 'number' || fieldId < 1 || fieldId > MAX_ID || typeof value !== 'string')
      throw new InvalidFieldFilterError(key);
    filters.push({ fieldId, value });
  }
  return filters;
}
