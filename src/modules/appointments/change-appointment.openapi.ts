import { applyDecorators } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/api-errors';
import { ACCESS_ERRORS, ID, flag } from './appointment.openapi';
import { EXTRAS_ERRORS } from './book-appointment.openapi';
import { ApiView } from '../../common/openapi/view-schema';
import { APPOINTMENT_VIEW } from './appointment.view';

const ADMIN = flag('admin', 'Act as the owner: no time rule applies.');
const NO_EMAIL = flag('noEmail', 'Send the client no notice.');

/** What a booking's time may be refused for, as POST /appointments refuses it. */
const TIME_ERRORS = [
  'required_datetime',
  'invalid_datetime',
  'invalid_timezone',
  'invalid_calendar',
  'invalid_calendar_id',
  'not_available',
  'not_available_min_hours_in_advance',
  'not_available_max_days_in_advance',
  'no_available_calendar',
];

export const ApiUpdateAppointment = () =>
  applyDecorators(
    ApiOperation({
      summary: "Change an appointment's client details, answers and label",
      description:
        'Only the attributes given change. `?admin=true` may also set `notes` and `certificate`.',
    }),
    ID,
    ADMIN,
    ApiView(APPOINTMENT_VIEW, { description: 'The appointment as it now is.' }),
    ApiErrors({
      400: ['required_first_name', 'required_last_name', 'required_email', ...EXTRAS_ERRORS],
      ...ACCESS_ERRORS,
    }),
  );

export const ApiCancelAppointment = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Cancel an appointment',
      description:
        'Frees its time and gives a package its use back; `appointment.canceled` is sent. A ' +
        'client cannot cancel once it has started (`cancel_not_allowed`); an admin can.',
    }),
    ID,
    ADMIN,
    NO_EMAIL,
    ApiView(APPOINTMENT_VIEW, { description: 'The canceled appointment.' }),
    ApiErrors({ 400: ['already_canceled', 'cancel_not_allowed'], ...ACCESS_ERRORS }),
  );

export const ApiRescheduleAppointment = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Move an appointment to another time',
      description:
        'The new time is checked as a booking is (availability, advance window, booking limits); ' +
        '`?admin=true` moves it whatever the time holds. `appointment.rescheduled` is sent.',
    }),
    ID,
    ADMIN,
    NO_EMAIL,
    ApiView(APPOINTMENT_VIEW, { description: 'The appointment at its new time.' }),
    ApiErrors({
      400: [...TIME_ERRORS, 'already_canceled', 'reschedule_not_allowed'],
      ...ACCESS_ERRORS,
    }),
  );
