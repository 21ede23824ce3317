import type { Calendar } from './calendar.entity';
import { DAY_NAMES, type DateOverrides, type WeeklyHours } from './working-hours';
import {
  field,
  id,
  list,
  int,
  orNull,
  text,
  viewSchema,
  type ViewType,
  type JsonSchema,
} from '../../common/openapi/view-schema';
import { SUPPORTED_YEARS_RULE } from '../../common/time/calendar-dates';

/** `GET /calendars`, as clients of the reference service know it. */
export type CalendarView = ViewType<typeof CALENDAR_VIEW>;

/** `GET /calendars/{id}` and POST/PUT's answers: the reference shape plus what the owner sets. */
export type CalendarDetailsView = ViewType<typeof CALENDAR_DETAILS_VIEW>;

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

export const CALENDAR_VIEW = viewSchema('CalendarView', {
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

export const CALENDAR_DETAILS_VIEW = viewSchema('CalendarDetailsView', {
  ...CALENDAR_VIEW.properties,
  hours: field<WeeklyHours>({
    type: 'object',
    description: 'Weekly hours by day name; a day left out is closed.',
    additionalProperties: false,
    properties: Object.fromEntries(DAY_NAMES.map((day) => [day, intervals])),
    example: { monday: [{ start: '09:00', end: '17:00' }] },
  }),
  overrides: field<DateOverrides>({
    type: 'object',
    description: `\`YYYY-MM-DD\` → that day's periods instead of the weekly ones; \`[]\` closes it. ${SUPPORTED_YEARS_RULE}`,
    propertyNames: { format: 'date' },
    additionalProperties: intervals,
    example: { '2030-12-25': [] },
  }),
  /** Booking limits (docs/api.md, Booking limits). */
  maxPerDay: orNull(int(8, 'Booking limit; null: none.')),
  maxPerWeek: orNull(int(30, 'Booking limit; null: none.')),
});
