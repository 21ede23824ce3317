import { ICalCalendarMethod } from 'ical-generator';
import { addAppointmentEvent, newCalendar } from '../../common/calendar/appointment-ical';

/** What an appointment's calendar event says. */
export interface CalendarEvent {
  appointmentId: number;
  /** The service's public URL: its host name is the UID's domain part, as in the e-mails and feeds. */
  publicUrl: string;
  sequence: number;
  start: Date;
  end: Date;
  /** When the appointment last changed (LAST-MODIFIED). */
  updatedAt: Date;
  /** The calendar's zone (the Google link's `ctz`; the file itself is written in UTC). */
  timezone: string;
  summary: string;
  location: string;
  description: string;
  /** The confirmation page: where to change or cancel it. */
  url: string;
  canceled: boolean;
}

/**
 * The appointment as an iCalendar object (RFC 5545, METHOD:PUBLISH) with one VEVENT, written by
 * the service's one builder of an appointment's event (common/calendar), so the download, the
 * e-mails' invitations and the staff's feed carry the same UID and SEQUENCE: a calendar that
 * imported any of them before replaces its event (a canceled one is STATUS:CANCELLED).
 */
export function calendarFile(event: CalendarEvent): string {
  const calendar = newCalendar(event.summary, ICalCalendarMethod.PUBLISH);
  addAppointmentEvent(
    calendar,
    {
      id: event.appointmentId,
      startsAt: event.start,
      endsAt: event.end,
      sequence: event.sequence,
      canceled: event.canceled,
      summary: event.summary,
      description: event.description,
      location: event.location,
      updatedAt: event.updatedAt,
    },
    event.publicUrl,
  ).url(event.url);
  return calendar.toString();
}

const compactUtc = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** "Add to Google Calendar": its event template URL (the client's own account adds it). */
export function googleCalendarLink(event: CalendarEvent): string {
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: event.summary,
    dates: `${compactUtc(event.start)}/${compactUtc(event.end)}`,
    details: `${event.description}\n\n${event.url}`,
    location: event.location,
    ctz: event.timezone,
  });
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

/** "Add to Outlook": Outlook on the web's compose deep link. */
export function outlookCalendarLink(event: CalendarEvent): string {
  const params = new URLSearchParams({
    path: '/calendar/action/compose',
    rru: 'addevent',
    subject: event.summary,
    startdt: event.start.toISOString(),
    enddt: event.end.toISOString(),
    body: `${event.description}\n\n${event.url}`,
    location: event.location,
  });
  return `https://outlook.live.com/calendar/0/deeplink/compose?${params.toString()}`;
}
