import { formatCents } from '../../common/money/money';
import type { AppointmentType } from './appointment-type.entity';
import { FREQUENCIES, MAX_COUNT, MIN_COUNT, type RecurrenceSettings } from './recurrence-settings';
import {
  ASSIGNMENTS,
  ASSIGNMENT_DESCRIPTION,
  type AssignmentWeights,
  WEIGHTS_SCHEMA,
  weightsOf,
} from './team-assignment';
import {
  bool,
  classViewSchema,
  field,
  listOf,
  nullableInt,
  num,
  str,
  strEnum,
  type ViewType,
} from '../../common/openapi/view-schema';

/** The ids a type is linked to (live rows only), in the order the owner sees them. */
export interface AppointmentTypeLinks {
  calendarIDs: number[];
  addonIDs: number[];
  formIDs: number[];
  resourceIDs: number[];
}

/** What a type's list view reads of its row (toAppointmentTypeView). */
export type ListedTypeRow = Pick<
  AppointmentType,
  | 'id'
  | 'accountId'
  | 'name'
  | 'active'
  | 'deletedAt'
  | 'description'
  | 'duration'
  | 'priceCents'
  | 'category'
  | 'color'
  | 'private'
  | 'kind'
  | 'classSize'
  | 'paddingBefore'
  | 'paddingAfter'
  | 'image'
>;

const ids = (example: number[]) => listOf(field<number>({ type: 'number' }), example);

/** `GET /appointment-types`, exactly as clients of the reference service know it. */
export const APPOINTMENT_TYPE_VIEW = classViewSchema('AppointmentTypeView', {
  id: num(12),
  name: str('Haircut'),
  active: bool(
    true,
    'Offered to clients: false when the owner turned it off, or when it was deleted (as the ' +
      'reference shows deleted types).',
  ),
  description: str('Wash, cut and style'),
  duration: num(45, "Minutes, a number (on appointments it is a string: the reference's quirk)."),
  price: str('40.00', 'Money with two decimals.'),
  category: str('Hair'),
  color: str('#E0A030'),
  private: bool(
    false,
    'Hidden from the public scheduling page; bookable by link and through the API.',
  ),
  type: strEnum(['service', 'class'], 'service'),
  classSize: nullableInt(null, 'Seats of each session of a class; null for a service.'),
  paddingBefore: num(5, 'Minutes.'),
  paddingAfter: num(10, 'Minutes.'),
  calendarIDs: ids([7, 9]),
  addonIDs: ids([3]),
  formIDs: ids([4]),
  resourceIDs: listOf(
    field<number>({ type: 'number' }),
    [2],
    'The live resources (rooms, equipment) each appointment of the type takes one unit of, by id.',
  ),
  image: str('https://img.example/haircut.png'),
  schedulingUrl: str('https://scheduling.example/schedule/1?appointmentType=12'),
});

/** The management view (`GET /appointment-types/{id}`, POST, PUT): the read fields, the rules. */
export const APPOINTMENT_TYPE_DETAILS = classViewSchema(
  'AppointmentTypeDetails',
  {
    ...APPOINTMENT_TYPE_VIEW.properties,
    slotInterval: nullableInt(15, 'Minutes between offered start times; null: the duration.'),
    minHoursInAdvance: nullableInt(null, "null: the account's setting."),
    maxDaysInAdvance: nullableInt(null, "null: the account's setting."),
    requireSmsOptIn: bool(false),
    maxPerDay: nullableInt(
      8,
      "At most this many live appointments and holds of the type a local day of the booked calendar's " +
        'zone; admins are exempt. null: no limit.',
    ),
    maxPerWeek: nullableInt(
      null,
      'At most this many a week (ISO: Monday to Sunday), as `maxPerDay`. null: no limit.',
    ),
    recurrence: field<RecurrenceSettings>({
      type: 'object',
      description:
        'What its clients may book as a series: these frequencies, at most `maxCount` occurrences. ' +
        'Left out when none (the default; an admin may book any series).',
      required: ['frequencies', 'maxCount'],
      properties: {
        frequencies: { type: 'array', items: { type: 'string', enum: [...FREQUENCIES] } },
        maxCount: { type: 'integer', minimum: MIN_COUNT, maximum: MAX_COUNT },
      },
      example: { frequencies: ['weekly'], maxCount: 12 },
    }),
    assignment: strEnum(ASSIGNMENTS, 'round-robin', ASSIGNMENT_DESCRIPTION),
    weights: field<AssignmentWeights | null>(WEIGHTS_SCHEMA),
    collective: bool(
      false,
      'Every calendar of the type takes each appointment together (docs/team-scheduling.md).',
    ),
  },
  ['recurrence'],
);

export type AppointmentTypeView = ViewType<typeof APPOINTMENT_TYPE_VIEW>;
export type AppointmentTypeDetails = ViewType<typeof APPOINTMENT_TYPE_DETAILS>;

export function toAppointmentTypeView(
  type: ListedTypeRow,
  links: AppointmentTypeLinks,
  publicUrl: string,
): AppointmentTypeView {
  return {
    id: type.id,
    name: type.name,
    active: type.active && type.deletedAt === null,
    description: type.description,
    duration: type.duration,
    price: formatCents(type.priceCents),
    category: type.category,
    color: type.color,
    private: type.private,
    type: type.kind,
    classSize: type.kind === 'class' ? type.classSize : null,
    paddingBefore: type.paddingBefore,
    paddingAfter: type.paddingAfter,
    calendarIDs: links.calendarIDs,
    addonIDs: links.addonIDs,
    formIDs: links.formIDs,
    resourceIDs: links.resourceIDs,
    image: type.image,
    schedulingUrl: `${publicUrl}/schedule/${type.accountId}?appointmentType=${type.id}`,
  };
}

export function toAppointmentTypeDetails(
  type: AppointmentType,
  links: AppointmentTypeLinks,
  publicUrl: string,
): AppointmentTypeDetails {
  return {
    ...toAppointmentTypeView(type, links, publicUrl),
    slotInterval: type.slotInterval,
    minHoursInAdvance: type.minHoursInAdvance,
    maxDaysInAdvance: type.maxDaysInAdvance,
    requireSmsOptIn: type.requireSmsOptIn,
    maxPerDay: type.maxPerDay,
    maxPerWeek: type.maxPerWeek,
    ...(type.recurrence ? { recurrence: type.recurrence } : {}),
    assignment: type.assignment,
    weights: weightsOf(type.assignmentWeights, links.calendarIDs),
    collective: type.collective,
  };
}
