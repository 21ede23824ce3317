import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiQuery } from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/api-errors';
import { ApiView } from '../../common/openapi/view-schema';
import { APPOINTMENT_VIEW } from './appointment.view';
import {
  DEFAULT_APPOINTMENT_LIST_MAX,
  MAX_APPOINTMENT_LIST_MAX,
} from './list-appointments.requests';
import { SUPPORTED_YEARS_RULE } from '../../common/time/calendar-dates';

export const ID = ApiParam({
  name: 'id',
  description: "The appointment's id.",
  schema: { type: 'integer', minimum: 1, example: 54321 },
});

export const ACCESS_ERRORS = { 403: ['forbidden'], 404: ['not_found'] } as const;

const param = (name: string, description: string, schema: Record<string, unknown>) =>
  ApiQuery({ name, required: false, description, schema });

export const flag = (name: string, description: string) =>
  param(name, description, { type: 'boolean', default: false });

export const ApiGetAppointment = () =>
  applyDecorators(
    ApiBearerAuth(),
    ApiOperation({
      summary: 'An appointment',
      description:
        "Another account's appointment is 403, an id that exists nowhere 404. With " +
        '`pastFormAnswers=true`, the questions of its forms it has no answer to show the answer ' +
        'its client (same e-mail) gave last on an earlier appointment.',
    }),
    ID,
    flag(
      'pastFormAnswers',
      "Fill the questions this appointment left open with its client's previous answers " +
        '(the latest earlier appointment, by start, that answered each).',
    ),
    ApiView(APPOINTMENT_VIEW),
    ApiErrors({ 400: ['invalid_past_form_answers'], ...ACCESS_ERRORS }),
  );

const text = (name: string, description: string) => param(name, description, { type: 'string' });

const day = (name: string, description: string) =>
  param(
    name,
    `${description} \`YYYY-MM-DD\`, inclusive, in the zone of the calendar asked for (\`calendarID\`), else the account's. ${SUPPORTED_YEARS_RULE}`,
    { type: 'string', format: 'date', example: '2030-06-03' },
  );

const id = (name: string, description: string) =>
  param(name, description, { type: 'integer', minimum: 1 });

/** `GET /appointments`: every parameter the reference documents. An empty one is one not given. */
export const ApiListAppointments = () =>
  applyDecorators(
    ApiBearerAuth(),
    ApiOperation({
      summary: "The account's appointments",
      description:
        "The reference's list: by start time (`direction`), at most `max`, live ones unless " +
        '`canceled` or `showall`. An empty parameter (`minDate=`) means the default.',
    }),
    param('max', 'At most this many.', {
      type: 'integer',
      minimum: 1,
      maximum: MAX_APPOINTMENT_LIST_MAX,
      default: DEFAULT_APPOINTMENT_LIST_MAX,
    }),
    day('minDate', 'The first day listed.'),
    day('maxDate', 'The last day listed.'),
    id('calendarID', "Only this calendar's (its zone then reads the dates)."),
    id('appointmentTypeID', "Only this type's."),
    id('seriesID', "Only this series' (POST /appointment-series); 404 for none."),
    flag('canceled', 'The canceled ones only (default: the live ones only).'),
    text('firstName', "The client's first name, without case."),
    text('lastName', "The client's last name, without case."),
    text('email', "The client's e-mail, without case."),
    text('phone', "The client's phone, as stored."),
    ApiQuery({
      name: 'field:ID',
      required: false,
      style: 'form',
      explode: true,
      description:
        'Form answers: `field:12=Newspaper` lists the appointments whose answer to field 12 is ' +
        '"Newspaper" (several are combined).',
      schema: {
        type: 'object',
        additionalProperties: { type: 'string' },
        example: { 'field:12': 'Newspaper' },
      },
    }),
    flag('excludeForms', 'No form answers (`forms: []`, `formsText: ""`): a faster list.'),
    param('direction', 'By start time: `DESC`, the latest first, or `ASC`. Read without case.', {
      type: 'string',
      enum: ['ASC', 'DESC'],
      default: 'DESC',
    }),
    flag('showall', 'Live and canceled together (`canceled` is then not read).'),
    ApiView(APPOINTMENT_VIEW, { list: true, description: 'OK' }),
    ApiErrors({
      400: [
        'invalid_max',
        'invalid_min_date',
        'invalid_max_date',
        'invalid_calendar_id',
        'invalid_calendar',
        'invalid_appointment_type_id',
        'invalid_appointment_type',
        'invalid_series_id',
        'invalid_canceled',
        'invalid_first_name',
        'invalid_last_name',
        'invalid_email',
        'invalid_phone',
        'invalid_field',
        'invalid_exclude_forms',
        'invalid_direction',
        'invalid_showall',
      ],
      403: ['forbidden'],
      404: ['not_found'],
    }),
  );
