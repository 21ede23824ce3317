import type { Calendar } from './calendar.entity';
import type { DateOverrides, WeeklyHours } from './working-hours';

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
