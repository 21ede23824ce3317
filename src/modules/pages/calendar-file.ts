import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';

/** What an appointment's calendar event says. */
export interface CalendarEvent {
  appointmentId: number;
  /** The service's host: the UID's domain part (RFC 5545 §3.8.4.7 recommends one). */
  host: string;
  sequence: number;
  start: Date;
  end: Date;
  /** The calendar's zone: the event is written with its TZID. */
  timezone: string;
  summary: string;
  location: string;
  description: string;
  /** The confirmation page: where to change or cancel it. */
  url: string;
  canceled: boolean;
}

/**
 * The appointment as an iCalendar object (RFC 5545) with one VEVENT. Its UID is the appointment's
 * own and never changes, and SEQUENCE grows with each reschedule and with the cancel, so a
 * calendar that imported it before replaces its event (a canceled one is STATUS:CANCELLED).
 * Times are written in UTC: every calendar reads them alike, and no VTIMEZONE is needed.
 */
export function calendarFile(event: CalendarEvent): string {
  const calendar = ical({
    prodId: { company: 'scheduling-service', product: 'client-pages', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
  });
  calendar.createEvent({
    id: `appointment-${event.appointmentId}@${event.host}`,
    sequence: event.sequence,
    start: event.start,
    end: event.end,
    stamp: new Date(),
    summary: event.summary,
    location: event.location || null,
    description: event.description,
    url: event.url,
    status: event.canceled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
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
