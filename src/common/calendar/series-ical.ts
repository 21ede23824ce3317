import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import {
  type ICalCalendar,
  ICalCalendarMethod,
  ICalEventRepeatingFreq,
  ICalEventStatus,
} from 'ical-generator';
import { DateTime } from 'luxon';
import {
  type AppointmentEventFacts,
  type Person,
  addAppointmentEvent,
  attendeeOf,
  newCalendar,
} from './appointment-ical';

/** One occurrence as the e-mail's .ics writes it, in the order of the series' rule. */
export type OccurrenceEventFacts = Pick<
  AppointmentEventFacts,
  'id' | 'startsAt' | 'endsAt' | 'sequence' | 'canceled' | 'updatedAt'
>;

/** What a series' VEVENTs say (built from its rows by the notifications worker). */
export interface SeriesEventFacts {
  id: number;
  frequency: 'daily' | 'weekly' | 'monthly';
  interval: number;
  /** The rule's zone: the occurrences keep the first one's wall-clock time in it. */
  timezone: string;
  /** The rule's instants, one per occurrence (epoch ms; null where the zone skips that time). */
  ruleStarts: (number | null)[];
  /** The occurrences as they are now, in the rule's order. */
  occurrences: OccurrenceEventFacts[];
  summary: string;
  description: string;
  location: string;
}

const FREQ = {
  daily: ICalEventRepeatingFreq.DAILY,
  weekly: ICalEventRepeatingFreq.WEEKLY,
  monthly: ICalEventRepeatingFreq.MONTHLY,
} as const;

/** The UID of a series' event: stable for its life, unique to this host. */
export function seriesUid(seriesId: number, publicUrl: string): string {
  return `series-${seriesId}@${new URL(publicUrl).hostname}`;
}

/**
 * The `.ics` of a series' e-mail (METHOD:REQUEST), sent again whole when an occurrence moves so
 * that the client's calendar holds the series as it is:
 *
 * - Where the series is a rule (every rule instant exists in its zone, as every booked series'
 *   does): one VEVENT with the series' UID, DTSTART in the zone (TZID, with its VTIMEZONE) and
 *   `RRULE:FREQ;INTERVAL;COUNT`, so a calendar keeps 9:00 at 9:00 across DST changes as we do; an
 *   `EXDATE` for each canceled occurrence; and for an occurrence moved off its rule instant (or
 *   of another length), a VEVENT of the same UID whose `RECURRENCE-ID` names the instant it
 *   replaces (RFC 5545 §3.8.4.4). SEQUENCE is the highest of the occurrences' (each move and
 *   cancel raises one), so every update supersedes the last.
 * - Else (a rule instant the zone lacks, or a zone without a known VTIMEZONE): one VEVENT per
 *   occurrence not canceled, each with its appointment's UID, in UTC.
 */
export function seriesInvite(
  facts: SeriesEventFacts,
  publicUrl: string,
  people: { organizer: Person; attendee: Person },
): string {
  const calendar = newCalendar(facts.summary, ICalCalendarMethod.REQUEST);
  const starts = facts.ruleStarts;
  const isRule =
    starts.length === facts.occurrences.length &&
    starts.every((s) => s !== null) &&
    getVtimezoneComponent(facts.timezone) !== null;
  if (!isRule) {
    for (const o of facts.occurrences.filter((each) => !each.canceled))
      addAppointmentEvent(calendar, { ...facts, ...o }, publicUrl, people);
    return calendar.toString();
  }
  addRule(calendar, facts, starts, publicUrl, people);
  return calendar.toString();
}

function addRule(
  calendar: ICalCalendar,
  facts: SeriesEventFacts,
  starts: number[],
  publicUrl: string,
  people: { organizer: Person; attendee: Person },
): void {
  calendar.timezone({ name: null, generator: getVtimezoneComponent });
  const zone = facts.timezone;
  const local = (ms: number) => DateTime.fromMillis(ms, { zone });
  const length = (o: OccurrenceEventFacts) => o.endsAt.getTime() - o.startsAt.getTime();
  const onRule = (o: OccurrenceEventFacts, i: number) => o.startsAt.getTime() === starts[i];
  const { occurrences } = facts;
  // The rule's length: the first occurrence still on its instant's (else the first's).
  const duration = length(
    occurrences.find((o, i) => !o.canceled && onRule(o, i)) ?? occurrences[0],
  );
  const sequence = Math.max(...occurrences.map((o) => o.sequence));
  const lastModified = new Date(Math.max(...occurrences.map((o) => o.updatedAt.getTime())));
  const common = {
    id: seriesUid(facts.id, publicUrl),
    sequence,
    timezone: zone,
    stamp: new Date(),
    lastModified,
    summary: facts.summary,
    description: facts.description,
    location: facts.location === '' ? null : facts.location,
    status: ICalEventStatus.CONFIRMED,
    organizer: people.organizer,
    attendees: [attendeeOf(people.attendee)],
  };
  const exclude = starts.filter((_, i) => occurrences[i].canceled).map(local);
  calendar.createEvent({
    ...common,
    start: local(starts[0]),
    end: local(starts[0] + duration),
    repeating: {
      freq: FREQ[facts.frequency],
      interval: facts.interval,
      count: starts.length,
      // No EXDATE line without a date: an empty one is no valid iCalendar.
      ...(exclude.length > 0 ? { exclude } : {}),
    },
  });
  occurrences.forEach((o, i) => {
    if (o.canceled || (onRule(o, i) && length(o) === duration)) return;
    calendar.createEvent({
      ...common,
      recurrenceId: local(starts[i]),
      start: local(o.startsAt.getTime()),
      end: local(o.endsAt.getTime()),
    });
  });
}
