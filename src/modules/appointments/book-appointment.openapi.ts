import { applyDecorators } from '@nestjs/common';
import { DateTime } from 'luxon';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiOperation } from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/api-errors';
import { LENIENT_DATETIME_RULE } from '../../common/time/datetimes';
import { flag } from './appointment.openapi';
import { ApiView } from '../../common/openapi/view-schema';
import { APPOINTMENT_VIEW } from './appointment.view';

const id = { type: 'integer', minimum: 1 } as const;

/**
 * A time the demo account (`npm run cli -- demo:seed`) offers: its Haircut (type 1 on a fresh
 * database) on its New York calendar (1), the next Tuesday at least two days away, 10:00, with the
 * answers its intake form requires. Computed as the document is built, so that "Try it out" books.
 */
function demoBooking() {
  let day = DateTime.now().setZone('America/New_York').plus({ days: 2 }).startOf('day');
  while (day.weekday !== 2) day = day.plus({ days: 1 });
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    appointmentTypeID: 1,
    calendarID: 1,
    datetime: `${day.toISODate()}T10:00`,
    timezone: 'America/New_York',
    // The intake form's required questions: hair type (field 1) and first visit (field 3).
    fields: [
      { id: 1, value: 'Straight' },
      { id: 3, value: 'yes' },
    ],
  };
}
/** What answers, a label and a certificate are refused for, by booking and by edits alike. */
export const EXTRAS_ERRORS = [
  'invalid_fields',
  'required_field',
  'invalid_field',
  'invalid_labels',
  'invalid_certificate',
  'expired_certificate',
  'invalid_certificate_type',
  'certificate_uses',
];

const ids = { oneOf: [id, { type: 'array', items: id }, { type: 'string' }] };

/** The body of a booking (a series' too, with its `recurrence`). */
export const BOOKING_PROPERTIES = {
  firstName: { type: 'string', example: 'Ada' },
  lastName: { type: 'string', example: 'Lovelace' },
  email: { type: 'string', description: 'Required unless an admin books.' },
  phone: { type: 'string' },
  appointmentTypeID: id,
  calendarID: { ...id, description: "Required for admins; else any of the type's." },
  datetime: {
    type: 'string',
    description: `The start. ${LENIENT_DATETIME_RULE}`,
    example: '2030-06-03T09:00',
  },
  timezone: { type: 'string', description: "The client's zone (IANA)." },
  certificate: { type: 'string' },
  fields: {
    type: 'array',
    items: { type: 'object', properties: { id, value: { type: 'string' } } },
  },
  notes: { type: 'string', description: 'Admins only.' },
  addonIDs: ids,
  labels: {
    type: 'array',
    description: 'At most one label, by id: `[{"id": 2}]`.',
    items: { type: 'object', required: ['id'], properties: { id } },
    maxItems: 1,
  },
  smsOptIn: { type: 'boolean' },
  holdToken: {
    type: 'string',
    description:
      'The token of a live hold of this account (POST /slot-holds) for this type and ' +
      'time (and calendar, if named): the held time is the client’s; the hold is spent.',
  },
};

/** The 400s of a booking, in the contract's order (a series' too). */
export const BOOKING_ERRORS = [
  'required_first_name',
  'required_last_name',
  'required_email',
  'required_phone',
  'invalid_first_name',
  'invalid_last_name',
  'invalid_email',
  'invalid_phone',
  'invalid_notes',
  'required_appointment_type_id',
  'required_datetime',
  'required_calendar_id',
  'invalid_appointment_type',
  'invalid_calendar',
  'invalid_addon_ids',
  'invalid_addon',
  'invalid_timezone',
  'invalid_datetime',
  ...EXTRAS_ERRORS,
  'invalid_idempotency_key',
  'idempotency_key_reused',
  'invalid_hold_token',
  'not_available',
  'not_available_min_hours_in_advance',
  'not_available_max_days_in_advance',
  'no_available_calendar',
];

/** `POST /appointments`: the contract's booking, with this service's `holdToken`. */
export const ApiBookAppointment = () =>
  applyDecorators(
    ApiBearerAuth(),
    ApiOperation({
      summary: 'Book an appointment',
      description:
        'A client books a time availability offers (checked again under the calendar lock); ' +
        '`?admin=true` books as the owner, on the calendar named, whatever its time holds and ' +
        'without the booking limits. With `holdToken` (from POST /slot-holds) the client books ' +
        'the time they hold, which no one else could take meanwhile: the hold becomes the ' +
        'appointment. `appointment.scheduled` is sent for the booking, never for a hold.',
    }),
    flag('admin', 'Book as the owner.'),
    flag('noEmail', 'Send the client no confirmation.'),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: 'The same request again with the same key answers the appointment it booked.',
    }),
    ApiBody({
      examples: {
        demo: {
          summary: 'A haircut on the demo account, next week',
          description:
            'On a database where `npm run cli -- demo:seed` made the demo account first (its ' +
            'Haircut is type 1, its New York calendar 1); sign in with the ID and key it prints.',
          value: demoBooking(),
        },
      },
      schema: {
        type: 'object',
        required: ['firstName', 'lastName', 'appointmentTypeID', 'datetime'],
        properties: BOOKING_PROPERTIES,
      },
    }),
    ApiView(APPOINTMENT_VIEW, { description: 'The appointment booked.' }),
    ApiErrors({
      400: BOOKING_ERRORS,
      403: ['forbidden'],
    }),
  );
