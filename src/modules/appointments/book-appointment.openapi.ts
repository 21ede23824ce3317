import { applyDecorators } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
} from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/api-errors';
import { AppointmentObject } from './appointment.openapi';

const id = { type: 'integer', minimum: 1 } as const;
const ids = { oneOf: [id, { type: 'array', items: id }, { type: 'string' }] };

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
    ApiQuery({
      name: 'admin',
      required: false,
      description: 'Book as the owner.',
      schema: { type: 'boolean', default: false },
    }),
    ApiQuery({
      name: 'noEmail',
      required: false,
      description: 'Send the client no confirmation.',
      schema: { type: 'boolean', default: false },
    }),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: 'The same request again with the same key answers the appointment it booked.',
    }),
    ApiBody({
      schema: {
        type: 'object',
        required: ['firstName', 'lastName', 'appointmentTypeID', 'datetime'],
        properties: {
          firstName: { type: 'string', example: 'Ada' },
          lastName: { type: 'string', example: 'Lovelace' },
          email: { type: 'string', description: 'Required unless an admin books.' },
          phone: { type: 'string' },
          appointmentTypeID: id,
          calendarID: { ...id, description: "Required for admins; else any of the type's." },
          datetime: {
            type: 'string',
            description: "Read in the calendar's zone when named, else the account's.",
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
          labels: { type: 'array', items: { type: 'object', properties: { id } }, maxItems: 1 },
          smsOptIn: { type: 'boolean' },
          holdToken: {
            type: 'string',
            description:
              'The token of a live hold of this account (POST /slot-holds) for this type and ' +
              'time (and calendar, if named): the held time is the client’s; the hold is spent.',
          },
        },
      },
    }),
    ApiOkResponse({ type: AppointmentObject, description: 'The appointment booked.' }),
    ApiErrors({
      400: [
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
        'invalid_fields',
        'required_field',
        'invalid_field',
        'invalid_labels',
        'invalid_certificate',
        'expired_certificate',
        'invalid_certificate_type',
        'certificate_uses',
        'invalid_idempotency_key',
        'idempotency_key_reused',
        'invalid_hold_token',
        'not_available',
        'not_available_min_hours_in_advance',
        'not_available_max_days_in_advance',
        'no_available_calendar',
      ],
      403: ['forbidden'],
    }),
  );
