import type { Calendar } from './calendar.entity';
import type { DateOverrides, WeeklyHours } from './working-hours';
import {
  id,
  list,
  int,
  orNull,
  text,
  viewSchema,
  type JsonSchema,
} from '../../common/openapi/view-schema';
import { SUPPORTED_YEARS_RULE } from '../../common/time/calendar-dates';

/** `GET /calendars`, as clients of the reference service know it. */
export interface CalendarView {
  id: number;
  name: string;
  email: string;
  replyTo: string;
  description: string;
  location: string;
  timezone: string;
  image: string;
  thumbnail: string;
}

/** `GET /calendars/{id}` and the answers of POST/PUT: the reference shape plus what the owner sets. */
export interface CalendarDetailsView extends CalendarView {
  hours: WeeklyHours;
  overrides: DateOverrides;
  /** Booking limits (docs/api.md, Booking limits); null: none. */
  maxPerDay: number | null;
  maxPerWeek: number | null;
}

export function toCalendarView(calendar: Calendar): CalendarView {
  return {
    id: calendar.id,
    name: calendar.name,
    email: calendar.email,
    replyTo: calendar.replyTo,
    description: calendar.description,
    location: calendar.location,
    timezone: calendar.timezone,
    image: calendar.image,
    thumbnail: calendar.thumbnail,
  };
}

export function toCalendarDetailsView(calendar: Calendar): CalendarDetailsView {
  return {
    ...toCalendarView(calendar),
    hours: calendar.hours,
    overrides: calendar.overrides,
    maxPerDay: calendar.maxPerDay,
    maxPerWeek: calendar.maxPerWeek,
  };
}

const intervals: JsonSchema = list(
  {
    type: 'object',
    additionalProperties: false,
    required: ['start', 'end'],
    properties: {
      start: text('09:00', "`HH:MM`, wall clock in the calendar's zone."),
      end: text('17:00', '`HH:MM`; `24:00` is the end of the day.'),
    },
  },
  'Working periods, `[start, end)`.',
);

export const CALENDAR_VIEW = viewSchema<CalendarView>('CalendarView', {
  id: id(7),
  name: text('Alex'),
  email: text('alex@example.com'),
  replyTo: text(''),
  description: text(''),
  location: text('Main street 1'),
  timezone: text('America/New_York', 'IANA zone.'),
  image: text(''),
  thumbnail: text(''),
});

export const CALENDAR_DETAILS_VIEW = viewSchema<CalendarDetailsView>('CalendarDetailsView', {
  ...CALENDAR_VIEW.properties,
  hours: {
    type: 'object',
    description: 'Weekly hours by day name; a day left out is closed.',
    additionalProperties: false,
    properties: Object.fromEntries(
      ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
        d,
        intervals,
      ]),
    ),
    example: { monday: [{ start: '09:00', end: '17:00' }] },
  },
  overrides: {
    type: 'object',
    description: `\`YYYY-MM-DD\` → that day's periods instead of the weekly ones; \`[]\` closes it. ${SUPPORTED_YEARS_RULE}`,
    propertyNames: { format: 'date' },
    additionalProperties: intervals,
    example: { '2030-12-25': [] },
  },
  maxPerDay: orNull(int(8, 'Booking limit; null: none.')),
  maxPerWeek: orNull(int(30, 'Booking limit; null: none.')),
});
