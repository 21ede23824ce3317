import { DateTime } from 'luxon';

/*
 * The staff member's own calendar, as iCalendar texts a feed or a CalDAV server would hold, around
 * dates computed from today (the series must lie ahead, inside the booking window), and the busy
 * hours they should leave on a calendar in New York, computed independently of the code under test
 * (by luxon from the IANA database, not by ical.js).
 */

export const NY = 'America/New_York';
export const LONDON = 'Europe/London';

/** The VTIMEZONE of New York as Google and Outlook write it (rules since 2007). */
export const NY_VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:America/New_York',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0400',
  'TZNAME:EDT',
  'DTSTART:20070311T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:-0400',
  'TZOFFSETTO:-0500',
  'TZNAME:EST',
  'DTSTART:20071104T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
].join('\r\n');

/** `20301104T090000` */
export const local = (t: DateTime) => t.toFormat("yyyyMMdd'T'HHmmss");
/** `20301104` */
export const day = (t: DateTime) => t.toFormat('yyyyMMdd');
/** `20301104T140000Z` */
export const utc = (t: DateTime) => t.toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'");

export function vcalendar(parts: string[]): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//calendar-sync//EN',
    ...parts,
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

export function vevent(lines: string[]): string {
  return ['BEGIN:VEVENT', `DTSTAMP:${utc(DateTime.utc())}`, ...lines, 'END:VEVENT'].join('\r\n');
}

/** The next Sunday (three weeks ahead at least: a series from two weeks before lies ahead) on which `zone` changes its offset. */
export function nextTransitionSunday(zone: string, from: DateTime): DateTime {
  let t = from.setZone(zone).startOf('day').plus({ days: 21 });
  for (let i = 0; i < 400; i++, t = t.plus({ days: 1 })) {
    if (t.weekday === 7 && t.offset !== t.plus({ days: 1 }).offset) return t;
  }
  throw new Error(`no offset change in ${zone}`);
}

/** The dates and the texts of the scenario (see busy-sources.e2e-spec.ts). */
export function scenario(now = DateTime.now()) {
  // A Monday at least three days ahead, in New York.
  let monday = now.setZone(NY).startOf('day').plus({ days: 3 });
  while (monday.weekday !== 1) monday = monday.plus({ days: 1 });
  const w = (days: number, hour = 0) => monday.plus({ days }).set({ hour });
  const nyT = nextTransitionSunday(NY, now);
  const londonT = nextTransitionSunday(LONDON, now);
  const nyAt = (t: DateTime, hour: number) => t.set({ hour });
  const londonSeriesStart = londonT.setZone(LONDON).minus({ weeks: 2 }).set({ hour: 14 });

  const feed = vcalendar([
    NY_VTIMEZONE,
    // Weekly at 09:00 for four weeks: the second excluded, the third moved to 13:00.
    vevent([
      'UID:weekly@test',
      'SUMMARY:Team meeting',
      `DTSTART;TZID=${NY}:${local(w(0, 9))}`,
      `DTEND;TZID=${NY}:${local(w(0, 10))}`,
      'RRULE:FREQ=WEEKLY;COUNT=4',
      `EXDATE;TZID=${NY}:${local(w(7, 9))}`,
    ]),
    vevent([
      'UID:weekly@test',
      `RECURRENCE-ID;TZID=${NY}:${local(w(14, 9))}`,
      'SUMMARY:Team meeting (moved)',
      `DTSTART;TZID=${NY}:${local(w(14, 13))}`,
      `DTEND;TZID=${NY}:${local(w(14, 14))}`,
    ]),
    // All day on Wednesday: the whole local day.
    vevent([
      'UID:all-day@test',
      'SUMMARY:Funeral',
      `DTSTART;VALUE=DATE:${day(w(2))}`,
      `DTEND;VALUE=DATE:${day(w(3))}`,
    ]),
    // Free and cancelled: no busy time.
    vevent([
      'UID:free@test',
      'SUMMARY:Think about lunch',
      'TRANSP:TRANSPARENT',
      `DTSTART;TZID=${NY}:${local(w(1, 11))}`,
      `DTEND;TZID=${NY}:${local(w(1, 12))}`,
    ]),
    vevent([
      'UID:cancelled@test',
      'SUMMARY:Dentist',
      'STATUS:CANCELLED',
      `DTSTART;TZID=${NY}:${local(w(1, 15))}`,
      `DTEND;TZID=${NY}:${local(w(1, 16))}`,
    ]),
    // In UTC: 17:00 in New York.
    vevent([
      'UID:utc@test',
      'SUMMARY:Call with Berlin',
      `DTSTART:${utc(w(1, 17))}`,
      `DTEND:${utc(w(1, 18))}`,
    ]),
  ]);

  // On CalDAV: weekly series across each zone's next change of offset.
  const nySeries = vcalendar([
    NY_VTIMEZONE,
    vevent([
      'UID:ny-dst@test',
      'SUMMARY:Sunday school',
      `DTSTART;TZID=${NY}:${local(nyAt(nyT.minus({ weeks: 2 }), 10))}`,
      `DTEND;TZID=${NY}:${local(nyAt(nyT.minus({ weeks: 2 }), 11))}`,
      'RRULE:FREQ=WEEKLY;COUNT=4',
    ]),
  ]);
  // An IANA TZID without its VTIMEZONE (as some servers write them).
  const londonSeries = vcalendar([
    vevent([
      'UID:london-dst@test',
      'SUMMARY:Call with London',
      `DTSTART;TZID=${LONDON}:${local(londonSeriesStart)}`,
      `DTEND;TZID=${LONDON}:${local(londonSeriesStart.plus({ hours: 1 }))}`,
      'RRULE:FREQ=WEEKLY;COUNT=4',
    ]),
  ]);

  /** Busy hours (local to New York) by date, as the scenario means them. */
  const busy = new Map<string, Set<number>>();
  const mark = (t: DateTime) => {
    const ny = t.setZone(NY);
    const key = ny.toISODate()!;
    busy.set(key, (busy.get(key) ?? new Set()).add(ny.hour));
  };
  mark(w(0, 9));
  mark(w(14, 13));
  mark(w(21, 9));
  for (let hour = 0; hour < 24; hour++) mark(w(2, hour));
  mark(w(1, 17));
  for (let k = -2; k < 2; k++) mark(nyAt(nyT.plus({ weeks: k }), 10));
  for (let k = 0; k < 4; k++) mark(londonSeriesStart.plus({ weeks: k }));

  const dates = [
    ...[0, 1, 2, 3, 7, 14, 21].map((d) => w(d).toISODate()!),
    ...[-2, -1, 0, 1].map((k) => nyT.plus({ weeks: k }).toISODate()!),
    ...[0, 1, 2, 3].map((k) => londonSeriesStart.plus({ weeks: k }).setZone(NY).toISODate()!),
  ];
  return { monday, w, nyT, londonT, londonSeriesStart, feed, nySeries, londonSeries, busy, dates };
}
