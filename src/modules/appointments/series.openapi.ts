import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiOperation, ApiParam } from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/api-errors';
import { ApiView } from '../../common/openapi/view-schema';
import { ACCESS_ERRORS, flag } from './appointment.openapi';
import { BOOKING_ERRORS, BOOKING_PROPERTIES } from './book-appointment.openapi';
import { FREQUENCIES, MAX_COUNT, MIN_COUNT } from '../catalog';
import { MAX_INTERVAL } from './series-recurrence';
import { CHECKED_OCCURRENCE_VIEW, SERIES_VIEW } from './series.view';

const RECURRENCE = {
  type: 'object',
  required: ['frequency', 'count'],
  description:
    "Each occurrence at the first one's wall-clock time in the calendar's zone (9:00 stays 9:00 " +
    'across DST changes); monthly keeps the day of the month, and a series reaching a day a ' +
    'month lacks is refused (`invalid_recurrence`).',
  properties: {
    frequency: { type: 'string', enum: [...FREQUENCIES], example: 'weekly' },
    interval: { type: 'integer', minimum: 1, maximum: MAX_INTERVAL, default: 1 },
    count: {
      type: 'integer',
      minimum: MIN_COUNT,
      maximum: MAX_COUNT,
      example: 6,
      description: 'How many occurrences, the first included.',
    },
  },
  example: { frequency: 'weekly', interval: 1, count: 6 },
};

const ID = ApiParam({
  name: 'id',
  description: "The series' id.",
  schema: { type: 'integer', minimum: 1, example: 12 },
});

const SERIES_ERRORS = ['required_recurrence', 'invalid_recurrence'];

/** The envelope of a refused series: the first refused occurrence's error, and every one refused. */
const UNAVAILABLE =
  'A refused series answers the error of its first refused occurrence, with `unavailable`: ' +
  'the datetime of every refused occurrence (`YYYY-MM-DDThh:mm:ss+hhmm`, in the calendar’s ' +
  'zone). Nothing is written.';

export const ApiBookSeries = () =>
  applyDecorators(
    ApiBearerAuth(),
    ApiOperation({
      summary: 'Book a recurring series of appointments, all or nothing',
      description:
        'The body of `POST /appointments` for the first occurrence, with `recurrence`. Every ' +
        'occurrence is checked as a client booking is (hours, advance window, busy time and ' +
        'holds, booking limits counting the series’ own occurrences, class seats), under the ' +
        'calendar’s lock, in one transaction; one calendar takes the whole series (without ' +
        '`calendarID`, the first of the type’s free for every occurrence). A certificate pays ' +
        'every occurrence, one use each. `appointment.scheduled` is sent once per occurrence. ' +
        `${UNAVAILABLE} \`?admin=true\` books as the owner on the calendar named, no time rule ` +
        'applying.',
    }),
    flag('admin', 'Book as the owner.'),
    flag('noEmail', 'Send the client no confirmation.'),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: 'The same request again with the same key answers the series it booked.',
    }),
    ApiBody({
      schema: {
        type: 'object',
        required: ['firstName', 'lastName', 'appointmentTypeID', 'datetime', 'recurrence'],
        properties: {
          ...BOOKING_PROPERTIES,
          datetime: { ...BOOKING_PROPERTIES.datetime, description: 'The first occurrence.' },
          recurrence: RECURRENCE,
        },
      },
    }),
    ApiView(SERIES_VIEW, { description: 'The series booked, with its appointments.' }),
    ApiErrors(
      { 400: [...BOOKING_ERRORS, ...SERIES_ERRORS], 403: ['forbidden'] },
      {
        details: {
          400: {
            unavailable: {
              type: 'array',
              items: { type: 'string' },
              description:
                'With a refused occurrence’s error: the datetime of every refused occurrence ' +
                '(`YYYY-MM-DDThh:mm:ss+hhmm` in the calendar’s zone; without an offset for a local ' +
                'time the zone skips).',
            },
          },
        },
      },
    ),
  );

export const ApiCheckSeries = () =>
  applyDecorators(
    ApiBearerAuth(),
    ApiOperation({
      summary: 'Check every occurrence of a series before booking it',
      description:
        'The body of `POST /appointment-series` without the client: each occurrence checked as ' +
        'the booking would check it now, on the calendar it would take (or, when none takes ' +
        'every occurrence, the one that refuses fewest), so that an app can offer “all but the ' +
        '3rd”. Nothing is written.',
    }),
    ApiBody({
      schema: {
        type: 'object',
        required: ['appointmentTypeID', 'datetime', 'recurrence'],
        properties: {
          appointmentTypeID: BOOKING_PROPERTIES.appointmentTypeID,
          calendarID: BOOKING_PROPERTIES.calendarID,
          datetime: { ...BOOKING_PROPERTIES.datetime, description: 'The first occurrence.' },
          timezone: BOOKING_PROPERTIES.timezone,
          addonIDs: BOOKING_PROPERTIES.addonIDs,
          recurrence: RECURRENCE,
          holdToken: {
            ...BOOKING_PROPERTIES.holdToken,
            description:
              'The first occurrence’s hold (POST /slot-holds), as the booking would present it: ' +
              'the held time then counts as the client’s. Nothing is spent.',
          },
        },
      },
    }),
    ApiView(CHECKED_OCCURRENCE_VIEW, { list: true, description: 'One per occurrence, in order.' }),
    ApiErrors({
      400: [
        'required_appointment_type_id',
        'required_datetime',
        'invalid_appointment_type',
        'invalid_calendar',
        'invalid_addon_ids',
        'invalid_addon',
        'invalid_timezone',
        'invalid_datetime',
        'invalid_hold_token',
        'not_available',
        ...SERIES_ERRORS,
      ],
      403: ['forbidden'],
    }),
  );

export const ApiGetSeries = () =>
  applyDecorators(
    ApiBearerAuth(),
    ApiOperation({ summary: 'A series, with its appointments (canceled ones included)' }),
    ID,
    ApiView(SERIES_VIEW),
    ApiErrors({ ...ACCESS_ERRORS }),
  );

export const ApiCancelSeries = () =>
  applyDecorators(
    ApiBearerAuth(),
    ApiOperation({
      summary: 'Cancel the rest of a series',
      description:
        'Cancels every occurrence that has not started and is not canceled yet, as ' +
        '`PUT /appointments/{id}/cancel` cancels one (each sends its own `appointment.canceled`); ' +
        'a client leaves those it may no longer cancel (`clientChangeMinHours`), an admin ' +
        'cancels every one still to come.',
    }),
    ID,
    flag('admin', 'Act as the owner: no time rule applies.'),
    flag('noEmail', 'Send the client no notice.'),
    ApiBody({
      required: false,
      schema: {
        type: 'object',
        properties: { cancelNote: { type: 'string' } },
      },
    }),
    ApiView(SERIES_VIEW, { description: 'The series as it now is.' }),
    ApiErrors({ ...ACCESS_ERRORS }),
  );
