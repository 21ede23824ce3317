import { applyDecorators } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProperty,
  ApiQuery,
} from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/api-errors';
import type { AppointmentFormView, AppointmentView } from './appointment.view';
import {
  DEFAULT_APPOINTMENT_LIST_MAX,
  MAX_APPOINTMENT_LIST_MAX,
} from './list-appointments.requests';
import { SUPPORTED_YEARS_RULE } from '../../common/time/calendar-dates';

/*
 * The OpenAPI description of the Appointment object and of its reads. The classes implement the
 * views' interfaces: a field added to a view and not described here does not compile.
 */

class AppointmentAnswerObject {
  @ApiProperty({
    description: "The field's id (this service has no id of its own for an answer).",
    example: 21,
  })
  id!: number;

  @ApiProperty({ example: 21 })
  fieldID!: number;

  @ApiProperty({ example: 'Is this your first visit?' })
  name!: string;

  @ApiProperty({ example: 'yes' })
  value!: string;
}

class AppointmentFormObject implements AppointmentFormView {
  @ApiProperty({ example: 3 })
  id!: number;

  @ApiProperty({ example: 'Intake' })
  name!: string;

  @ApiProperty({ type: [AppointmentAnswerObject] })
  values!: AppointmentAnswerObject[];
}

class AppointmentLabelObject {
  @ApiProperty({ example: 2 })
  id!: number;

  @ApiProperty({ example: 'Confirmed' })
  name!: string;

  @ApiProperty({ example: 'green' })
  color!: string;
}

const MONEY = (description: string, example: string) =>
  ApiProperty({ description: `${description} Money with two decimals.`, example });

/** The Appointment object: the contract's fields and those `v1-surface.md` adds. */
export class AppointmentObject implements AppointmentView {
  @ApiProperty({ example: 54321 })
  id!: number;

  @ApiProperty({ example: 'Ada' })
  firstName!: string;

  @ApiProperty({ example: 'Lovelace' })
  lastName!: string;

  @ApiProperty({ description: '"" when none.', example: '' })
  phone!: string;

  @ApiProperty({ example: 'ada@example.com' })
  email!: string;

  @ApiProperty({ description: "In the appointment's zone (`timezone`).", example: 'June 3, 2030' })
  date!: string;

  @ApiProperty({ example: '10:15am' })
  time!: string;

  @ApiProperty({ example: '11:00am' })
  endTime!: string;

  @ApiProperty({ example: 'May 2, 2030' })
  dateCreated!: string;

  @ApiProperty({ example: '2030-05-02T16:04:11-0400' })
  datetimeCreated!: string;

  @ApiProperty({ description: '`YYYY-MM-DDThh:mm:ss+hhmm`.', example: '2030-06-03T10:15:00-0400' })
  datetime!: string;

  @MONEY("The type's price and its addons'.", '40.00')
  price!: string;

  @MONEY('What the client pays: after a coupon; "0.00" with a package.', '40.00')
  priceSold!: string;

  @ApiProperty({
    enum: ['yes', 'no'],
    description: '"yes" once `amountPaid` (above 0) covers `priceSold`.',
    example: 'no',
  })
  paid!: string;

  @MONEY('The sum of its payments and refunds (GET /appointments/{id}/payments).', '15.00')
  amountPaid!: string;

  @ApiProperty({ description: "The appointment type's name.", example: 'Haircut' })
  type!: string;

  @ApiProperty({ example: 1 })
  appointmentTypeID!: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The class session; null for a service.',
    example: null,
  })
  classID!: number | null;

  @ApiProperty({ type: [Number], example: [] })
  addonIDs!: number[];

  @ApiProperty({ example: '' })
  category!: string;

  @ApiProperty({ description: "Minutes, as a string (the reference's quirk).", example: '45' })
  duration!: string;

  @ApiProperty({ description: "The calendar's name.", example: 'Alex' })
  calendar!: string;

  @ApiProperty({ example: 7 })
  calendarID!: number;

  @ApiProperty({ example: 'America/New_York' })
  calendarTimezone!: string;

  @ApiProperty({ example: '' })
  location!: string;

  @ApiProperty({ description: 'The certificate code used; "" when none.', example: '' })
  certificate!: string;

  @ApiProperty({ example: 'https://scheduling.example/confirmation/54321-9f2c4e1a7b3d5c6e8f0a' })
  confirmationPage!: string;

  @ApiProperty({ example: 'Intake\n======\nIs this your first visit?: yes' })
  formsText!: string;

  @ApiProperty({ type: [AppointmentFormObject] })
  forms!: AppointmentFormObject[];

  @ApiProperty({ description: 'Set by admins.', example: '' })
  notes!: string;

  @ApiProperty({
    description: "The client's zone, else the calendar's.",
    example: 'America/New_York',
  })
  timezone!: string;

  @ApiProperty({ type: [AppointmentLabelObject], description: 'At most one.' })
  labels!: AppointmentLabelObject[];

  @ApiProperty({ example: false })
  canceled!: boolean;

  @ApiProperty({ example: false })
  noShow!: boolean;

  @ApiProperty({ example: true })
  canClientCancel!: boolean;

  @ApiProperty({ example: true })
  canClientReschedule!: boolean;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The e-mail of the admin who booked it; null when the client did.',
    example: null,
  })
  scheduledBy!: string | null;
}

const ID = ApiParam({
  name: 'id',
  description: "The appointment's id.",
  schema: { type: 'integer', minimum: 1, example: 54321 },
});

const ACCESS_ERRORS = { 403: ['forbidden'], 404: ['not_found'] } as const;

/** `GET /appointments/{id}`. */
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
    ApiQuery({
      name: 'pastFormAnswers',
      required: false,
      description:
        "Fill the questions this appointment left open with its client's previous answers " +
        '(the latest earlier appointment, by start, that answered each).',
      schema: { type: 'boolean', default: false },
    }),
    ApiOkResponse({ type: AppointmentObject }),
    ApiErrors({ 400: ['invalid_past_form_answers'], ...ACCESS_ERRORS }),
  );

const flag = (name: string, description: string) =>
  ApiQuery({ name, required: false, description, schema: { type: 'boolean', default: false } });

const text = (name: string, description: string) =>
  ApiQuery({ name, required: false, description, schema: { type: 'string' } });

const day = (name: string, description: string) =>
  ApiQuery({
    name,
    required: false,
    description: `${description} \`YYYY-MM-DD\`, inclusive, in the zone of the calendar asked for (\`calendarID\`), else the account's. ${SUPPORTED_YEARS_RULE}`,
    schema: { type: 'string', format: 'date', example: '2030-06-03' },
  });

const id = (name: string, description: string) =>
  ApiQuery({ name, required: false, description, schema: { type: 'integer', minimum: 1 } });

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
    ApiQuery({
      name: 'max',
      required: false,
      description: 'At most this many.',
      schema: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_APPOINTMENT_LIST_MAX,
        default: DEFAULT_APPOINTMENT_LIST_MAX,
      },
    }),
    day('minDate', 'The first day listed.'),
    day('maxDate', 'The last day listed.'),
    id('calendarID', "Only this calendar's (its zone then reads the dates)."),
    id('appointmentTypeID', "Only this type's."),
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
    ApiQuery({
      name: 'direction',
      required: false,
      description: 'By start time: `DESC`, the latest first, or `ASC`. Read without case.',
      schema: { type: 'string', enum: ['ASC', 'DESC'], default: 'DESC' },
    }),
    flag('showall', 'Live and canceled together (`canceled` is then not read).'),
    ApiOkResponse({ type: AppointmentObject, isArray: true }),
    ApiErrors({
      400: [
        'invalid_max',
        'invalid_min_date',
        'invalid_max_date',
        'invalid_calendar_id',
        'invalid_calendar',
        'invalid_appointment_type_id',
        'invalid_appointment_type',
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
    }),
  );
