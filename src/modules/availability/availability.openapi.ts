import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/api-errors';
import { SUPPORTED_YEARS_RULE } from '../../common/time/calendar-dates';
import { AVAILABLE_CLASS } from './availability.views';
import { ApiView } from '../../common/openapi/view-schema';

const query = (name: string, description: string, schema: Record<string, unknown>) =>
  ApiQuery({ name, required: false, description, schema });

const DATE = { type: 'string', format: 'date', example: '2030-06-03' };
const ID = { type: 'integer', minimum: 1 };
const FLAG = { type: 'boolean', default: false };

/** `GET /availability/classes`: every parameter the reference documents, with its semantics. */
export const ApiAvailableClasses = () =>
  applyDecorators(
    ApiBearerAuth(),
    ApiOperation({
      summary: 'The sessions of class types, with their seats',
      description:
        'Sessions with a free seat that can still be booked, by time. Without `month`, ' +
        '`minDate` or `maxDate`: from now to the booking horizon. Dates and the month are read ' +
        "in `timezone`, else the account's zone.",
    }),
    query(
      'month',
      `The sessions of this month (\`YYYY-MM\`); it wins over \`minDate\` and \`maxDate\`. ${SUPPORTED_YEARS_RULE}`,
      { type: 'string', pattern: '^\\d{4}-\\d{2}$', example: '2030-06' },
    ),
    query('appointmentTypeID', "This class type's sessions (default: every class type's).", ID),
    query('calendarID', "This calendar's sessions (default: every calendar's).", ID),
    query(
      'minDate',
      `The first day (inclusive), unless \`month\` is given. ${SUPPORTED_YEARS_RULE}`,
      DATE,
    ),
    query(
      'maxDate',
      `The last day (inclusive), unless \`month\` is given; without it, the horizon seen from \`minDate\`. ${SUPPORTED_YEARS_RULE}`,
      DATE,
    ),
    query('timezone', 'The zone times are shown and dates read in (an IANA name).', {
      type: 'string',
      example: 'America/New_York',
    }),
    query('includeUnavailable', 'Also the full sessions and those no longer bookable.', FLAG),
    query(
      'includePrivate',
      'Also the sessions of private class types (left out otherwise, even when the type is named).',
      FLAG,
    ),
    ApiView(AVAILABLE_CLASS, { list: true, description: 'OK' }),
    ApiErrors({
      400: [
        'invalid_month',
        'invalid_min_date',
        'invalid_max_date',
        'invalid_appointment_type_id',
        'invalid_appointment_type',
        'invalid_calendar_id',
        'invalid_calendar',
        'invalid_timezone',
        'invalid_include_unavailable',
        'invalid_include_private',
      ],
      403: ['forbidden'],
    }),
  );
