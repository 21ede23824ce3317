import {
  bool,
  classViewSchema,
  date,
  field,
  datetime,
  flag,
  int,
  namedSchema,
  num,
  str,
  text,
  viewSchema,
  type ViewType,
} from '../../common/openapi/view-schema';
import { SUPPORTED_YEARS_RULE } from '../../common/time/calendar-dates';
import type { SlotType } from './slot-context';

/** `GET /availability/dates`. */
export type AvailableDate = ViewType<typeof AVAILABLE_DATE>;

/** `GET /availability/times`: a start, and how many calendars (or class seats) can take it. */
export type AvailableTime = ViewType<typeof AVAILABLE_TIME>;

/** The scheduling page's date step: a month's dates and one day's times, and what they are of. */
export interface DatesWithTimes {
  dates: AvailableDate[];
  times: AvailableTime[];
  /** The type as the context read it, its calendars (ascending id) and its live addons. */
  type: SlotType;
  calendarIds: number[];
  addonIds: number[];
}

/** `GET /availability/classes`, as clients of the reference service know it. */
export const AVAILABLE_CLASS = classViewSchema('AvailableClass', {
  id: num(31, "The session's id."),
  appointmentTypeID: num(12),
  calendarID: num(7),
  name: str('Yoga', "The session's name (its type's, unless named)."),
  time: str(
    '2030-06-03T07:00:00-0400',
    "`YYYY-MM-DDThh:mm:ss+hhmm`, in `timezone` when asked, else the calendar's zone.",
  ),
  calendar: str('Studio', "The calendar's name."),
  duration: num(60, 'Minutes.'),
  isSeries: bool(false, 'Sessions here are single dates, never part of a recurring series.'),
  slots: num(8, "Seats: the type's classSize."),
  slotsAvailable: num(3, 'Seats left.'),
});

export type AvailableClass = ViewType<typeof AVAILABLE_CLASS>;

/** `POST /availability/check-times`: the item as asked, and whether booking it would succeed. */
export type CheckedTime = ViewType<typeof CHECKED_TIME>;

export const AVAILABLE_DATE = viewSchema('AvailableDate', {
  date: date('2030-06-03', 'A date with at least one bookable time.'),
});

export const AVAILABLE_TIME = viewSchema('AvailableTime', {
  time: datetime('2030-06-03T10:15:00-0400', "In `timezone` when asked, else the calendar's zone."),
  slotsAvailable: int(1, 'Calendars (or class seats) that can take it.'),
});

const echoed = (description: string) =>
  field<unknown>({ description: `${description}, as asked.` });

export const CHECKED_TIME = viewSchema(
  'CheckedTime',
  {
    datetime: echoed('The time'),
    appointmentTypeID: echoed('The type'),
    calendarID: echoed('The calendar'),
    addonIDs: echoed('The addons'),
    valid: flag(true, 'Whether POST /appointments would book it now.'),
    reason: text(
      'not_available',
      'When not valid: the `error` code POST /appointments would give.',
    ),
  },
  'One time asked, and whether it is bookable.',
  ['datetime', 'appointmentTypeID', 'calendarID', 'addonIDs', 'reason'],
);

/** One item of POST /availability/check-times: what POST /appointments would be given. */
export const TIME_TO_CHECK = namedSchema('TimeToCheck', {
  type: 'object',
  required: ['datetime', 'appointmentTypeID'],
  properties: {
    datetime: datetime(
      '2030-06-03T10:15:00-0400',
      `As POST /appointments reads it. ${SUPPORTED_YEARS_RULE}`,
    ),
    appointmentTypeID: { type: 'integer', minimum: 1, example: 1 },
    calendarID: { type: 'integer', minimum: 1, example: 1 },
    addonIDs: { type: 'array', items: { type: 'integer', minimum: 1 } },
    timezone: text('America/New_York'),
  },
});

/**
 * `calendarIDs` of a collective appointment or hold (docs/team-scheduling.md): every calendar it
 * takes, the host first; left out for any other.
 */
export const collectiveCalendarIds = (what: string) =>
  field<number[]>({
    type: 'array',
    items: { type: 'integer', minimum: 1 },
    example: [7, 9, 12],
    description:
      `A collective type’s: every calendar ${what}, the host (\`calendarID\`) first ` +
      '(docs/team-scheduling.md); left out for any other.',
  });

/** The `calendarIDs` a collective appointment or hold shows (collectiveCalendarIds); none else. */
export function collectiveCalendarsOf(row: {
  calendarId: number;
  memberCalendarIds: number[] | null;
}): { calendarIDs?: number[] } {
  return row.memberCalendarIds ? { calendarIDs: [row.calendarId, ...row.memberCalendarIds] } : {};
}
