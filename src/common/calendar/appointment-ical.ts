import ical, {
  type ICalCalendar,
  type ICalEvent,
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalCalendarMethod,
  ICalEventStatus,
} from 'ical-generator';

/** The PRODID of everything the service writes in iCalendar. */
const PROD_ID = { company: 'scheduling-service', product: 'appointments', language: 'EN' };

export type Person = { name: string; email: string };

/** What an appointment's VEVENT says (built from the row, whichever module reads it). */
export interface AppointmentEventFacts {
  id: number;
  startsAt: Date;
  endsAt: Date;
  /** SEQUENCE: raised by every reschedule and cancel (appointments.sequence). */
  sequence: number;
  canceled: boolean;
  summary: string;
  description: string;
  location: string;
  /** When the row last changed (DTSTAMP for the feed; LAST-MODIFIED). */
  updatedAt: Date;
}

/** The UID of an appointment's event: stable for its life, unique to this host (RFC 5545). */
export function appointmentUid(appointmentId: number, publicUrl: string): string {
  return `appointment-${appointmentId}@${new URL(publicUrl).hostname}`;
}

/** A new calendar object: a feed's (PUBLISH: subscribed to) or an e-mail's (see appointmentInvite). */
export function newCalendar(name: string, method: ICalCalendarMethod | null = null): ICalCalendar {
  return ical({ prodId: PROD_ID, name, method });
}

/**
 * Adds the appointment's VEVENT, its times in UTC: the one builder of an appointment's event, so
 * that the feed, the e-mails and the client's pages write the same UID and SEQUENCE.
 */
export function addAppointmentEvent(
  calendar: ICalCalendar,
  facts: AppointmentEventFacts,
  publicUrl: string,
  people: { organizer?: Person; attendee?: Person } = {},
): ICalEvent {
  return calendar.createEvent({
    id: appointmentUid(facts.id, publicUrl),
    sequence: facts.sequence,
    start: facts.startsAt,
    end: facts.endsAt,
    stamp: new Date(),
    lastModified: facts.updatedAt,
    summary: facts.summary,
    description: facts.description,
    location: facts.location === '' ? null : facts.location,
    status: facts.canceled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: people.organizer ?? null,
    attendees: people.attendee ? [attendeeOf(people.attendee)] : [],
  });
}

/** The client as an ATTENDEE: booked by them, so accepted already, no reply asked for. */
export function attendeeOf(person: Person) {
  return {
    ...person,
    role: ICalAttendeeRole.REQ,
    status: ICalAttendeeStatus.ACCEPTED,
    rsvp: false,
  };
}

/**
 * The `.ics` of a client's e-mail: METHOD:REQUEST (what mail clients treat as an update of the
 * event they hold when the UID matches and the SEQUENCE is higher), the client an ACCEPTED ATTENDEE
 * asked for no reply; METHOD:CANCEL for a canceled appointment (RFC 5546).
 */
export function appointmentInvite(
  facts: AppointmentEventFacts,
  publicUrl: string,
  people: { organizer: Person; attendee: Person },
): string {
  const calendar = newCalendar(
    facts.summary,
    facts.canceled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  );
  addAppointmentEvent(calendar, facts, publicUrl, people);
  return calendar.toString();
}
