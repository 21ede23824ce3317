import { shown } from '../../common/errors/domain-error';
import { toId } from '../../common/http/id-list';
import { RequiredParameterError } from '../../common/http/required-parameter';
import { InvalidAppointmentTypeError, InvalidCalendarError } from '../catalog';
import type { SlotRequest } from './slot-context';

/* A slot request's parameters as sent, checked in the contract's order before anything is read. */

/** Left out: clients send `undefined`, `null` and `""` alike. */
function absent(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** The type and calendar asked about: the type and a datetime are required, each id must be one. */
export function slotRequestOf(request: {
  appointmentTypeID?: unknown;
  calendarID?: unknown;
  datetime?: unknown;
}): Omit<SlotRequest, 'addonIDs'> {
  if (absent(request.appointmentTypeID)) throw new RequiredParameterError('appointmentTypeID');
  requireDatetime(request.datetime);
  const appointmentTypeID = toId(request.appointmentTypeID);
  if (appointmentTypeID === undefined)
    throw new InvalidAppointmentTypeError(shown(request.appointmentTypeID));
  return { appointmentTypeID, calendarID: calendarIdOf(request.calendarID) };
}

export function requireDatetime(datetime: unknown): void {
  if (absent(datetime)) throw new RequiredParameterError('datetime');
}

/** The calendar asked for, undefined when none; `invalid_calendar` for what is not an id. */
export function calendarIdOf(value: unknown): number | undefined {
  if (absent(value)) return undefined;
  const id = toId(value);
  if (id === undefined) throw new InvalidCalendarError(shown(value));
  return id;
}
