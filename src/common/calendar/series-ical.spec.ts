import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { type OccurrenceEventFacts, type SeriesEventFacts, seriesInvite } from './series-ical';

const PEOPLE = {
  organizer: { name: 'Studio', email: 'studio@example.test' },
  attendee: { name: 'Ada', email: 'ada@example.test' },
};
const HOUR = 3_600_000;

/** Weekly at 9:00 local in `zone` from `firstLocal`, an hour each. */
function weekly(zone: string, firstLocal: string, count: number): SeriesEventFacts {
  const first = DateTime.fromISO(firstLocal, { zone });
  const ruleStarts = Array.from({ length: count }, (_, i) => first.plus({ weeks: i }).toMillis());
  const occurrences: OccurrenceEventFacts[] = ruleStarts.map((start, i) => ({
    id: 100 + i,
    startsAt: new Date(start),
    endsAt: new Date(start + HOUR),
    sequence: 0,
    canceled: false,
    updatedAt: new Date(0),
  }));
  return {
    id: 7,
    frequency: 'weekly',
    interval: 1,
    timezone: zone,
    ruleStarts,
    occurrences,
    summary: 'Therapy (Studio)',
    description: 'See it',
    location: '',
  };
}

/**
 * The instants a calendar shows for the .ics, by ical.js: its VTIMEZONEs registered, each UID's
 * master expanded with its RRULE and EXDATEs, overrides replacing the instants they name.
 */
function instantsOf(ics: string): { start: string; end: string }[] {
  const root = new ICAL.Component(ICAL.parse(ics) as unknown[]);
  const zones = root.getAllSubcomponents('vtimezone').map((c) => new ICAL.Timezone(c));
  for (const tz of zones) ICAL.TimezoneService.register(tz, tz.tzid);
  try {
    const vevents = root.getAllSubcomponents('vevent');
    const masters = vevents.filter((v) => !v.hasProperty('recurrence-id'));
    const overrides = vevents.filter((v) => v.hasProperty('recurrence-id'));
    const out: { start: string; end: string }[] = [];
    for (const master of masters) {
      const event = new ICAL.Event(master, { exceptions: overrides, strictExceptions: true });
      if (!event.isRecurring()) {
        out.push({
          start: event.startDate.toJSDate().toISOString(),
          end: event.endDate.toJSDate().toISOString(),
        });
        continue;
      }
      const it = event.iterator();
      for (let next = it.next(); next; next = it.next()) {
        const details = event.getOccurrenceDetails(next);
        out.push({
          start: details.startDate.toJSDate().toISOString(),
          end: details.endDate.toJSDate().toISOString(),
        });
      }
    }
    return out.sort((a, b) => a.start.localeCompare(b.start));
  } finally {
    for (const tz of zones) ICAL.TimezoneService.remove(tz.tzid);
  }
}

function instantsOfFacts(facts: SeriesEventFacts) {
  return facts.occurrences
    .filter((o) => !o.canceled)
    .map((o) => ({ start: o.startsAt.toISOString(), end: o.endsAt.toISOString() }))
    .sort((a, b) => a.start.localeCompare(b.start));
}

describe('seriesInvite', () => {
  it.each([
    ['America/New_York', 'spring', '2026-02-24T09:00', '14:00:00.000Z', '13:00:00.000Z'],
    ['Europe/London', 'autumn', '2026-10-13T09:00', '08:00:00.000Z', '09:00:00.000Z'],
  ])(
    'writes one VEVENT with an RRULE in %s whose instants keep 9:00 across the %s change',
    (zone, _season, first, before, after) => {
      const facts = weekly(zone, first, 6);
      const ics = seriesInvite(facts, 'https://book.example.test', PEOPLE);

      expect(ics).toContain('METHOD:REQUEST');
      expect(ics).toContain(`BEGIN:VTIMEZONE`);
      expect(ics).toContain(`TZID:${zone}`);
      expect(ics).toMatch(/RRULE:FREQ=WEEKLY;(INTERVAL=1;)?COUNT=6/);
      expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(1);
      expect(ics).toContain('UID:series-7@book.example.test');
      const instants = instantsOf(ics);
      expect(instants).toEqual(instantsOfFacts(facts));
      expect(instants[0].start.slice(11)).toBe(before);
      expect(instants[5].start.slice(11)).toBe(after);
    },
  );

  it('excludes a canceled occurrence with an EXDATE and replaces a moved one by RECURRENCE-ID', () => {
    const facts = weekly('America/New_York', '2026-03-03T09:00', 5);
    facts.occurrences[1] = { ...facts.occurrences[1], canceled: true, sequence: 1 };
    const moved = facts.occurrences[3].startsAt.getTime() + 2 * HOUR;
    facts.occurrences[3] = {
      ...facts.occurrences[3],
      startsAt: new Date(moved),
      endsAt: new Date(moved + HOUR),
      sequence: 2,
    };
    const ics = seriesInvite(facts, 'https://book.example.test', PEOPLE);

    expect(ics).toMatch(/EXDATE;TZID=America\/New_York:20260310T090000/);
    expect(ics).toMatch(/RECURRENCE-ID;TZID=America\/New_York:20260324T090000/);
    expect(ics.match(/SEQUENCE:2/g)).toHaveLength(2);
    expect(instantsOf(ics)).toEqual(instantsOfFacts(facts));
  });

  it('writes one VEVENT per occurrence, in UTC, where the series is no rule', () => {
    const facts = weekly('America/New_York', '2026-03-01T02:30', 3);
    facts.ruleStarts[1] = null;
    facts.occurrences[2] = { ...facts.occurrences[2], canceled: true };
    const ics = seriesInvite(facts, 'https://book.example.test', PEOPLE);

    expect(ics).not.toContain('RRULE');
    expect(ics).toContain('UID:appointment-100@book.example.test');
    expect(ics).toContain('UID:appointment-101@book.example.test');
    expect(ics).not.toContain('appointment-102@');
    expect(instantsOf(ics)).toEqual(instantsOfFacts(facts));
  });
});
