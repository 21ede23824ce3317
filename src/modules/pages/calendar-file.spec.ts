import ICAL from 'ical.js';
import { appointmentUid } from '../../common/calendar/appointment-ical';
import {
  type CalendarEvent,
  calendarFile,
  googleCalendarLink,
  outlookCalendarLink,
} from './calendar-file';

const EVENT: CalendarEvent = {
  appointmentId: 42,
  publicUrl: 'https://scheduling.example:8443',
  sequence: 2,
  // A DST day in New York: the instant is what counts.
  start: new Date('2030-03-10T07:30:00Z'),
  end: new Date('2030-03-10T08:00:00Z'),
  updatedAt: new Date('2030-03-01T12:00:00Z'),
  timezone: 'America/New_York',
  summary: 'Consultation with Dr. Smith',
  location: '12 Main St, Springfield; 2nd floor',
  description: 'Consultation (30 minutes), booked with Test Clinic.',
  url: 'https://scheduling.example/confirmation/42-abc',
  canceled: false,
};

describe('calendarFile (RFC 5545)', () => {
  it('one VEVENT: stable UID, SEQUENCE, instants, text escaped as the format wants', () => {
    const vevent = new ICAL.Component(ICAL.parse(calendarFile(EVENT))).getFirstSubcomponent(
      'vevent',
    )!;
    const event = new ICAL.Event(vevent);
    // The e-mails' and the feed's UID (the host name, without the port): one event everywhere.
    expect(event.uid).toBe(appointmentUid(42, EVENT.publicUrl));
    expect(event.uid).toBe('appointment-42@scheduling.example');
    expect(event.sequence).toBe(2);
    expect(event.startDate.toJSDate().toISOString()).toBe('2030-03-10T07:30:00.000Z');
    expect(event.endDate.toJSDate().toISOString()).toBe('2030-03-10T08:00:00.000Z');
    expect(event.location).toBe('12 Main St, Springfield; 2nd floor');
    expect(vevent.getFirstPropertyValue('status')).toBe('CONFIRMED');
  });

  it('a canceled appointment is STATUS:CANCELLED', () => {
    const vevent = new ICAL.Component(
      ICAL.parse(calendarFile({ ...EVENT, canceled: true })),
    ).getFirstSubcomponent('vevent')!;
    expect(vevent.getFirstPropertyValue('status')).toBe('CANCELLED');
  });

  it('Google and Outlook links carry the same instants', () => {
    const google = new URL(googleCalendarLink(EVENT));
    expect(google.searchParams.get('dates')).toBe('20300310T073000Z/20300310T080000Z');
    const outlook = new URL(outlookCalendarLink(EVENT));
    expect(outlook.searchParams.get('startdt')).toBe('2030-03-10T07:30:00.000Z');
  });
});
