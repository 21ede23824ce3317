import { DateTime } from 'luxon';
import {
  NY,
  NY_VTIMEZONE,
  local,
  scenario,
  vcalendar,
  vevent,
} from '../../../test/calendar-sync/calendar-data';
import { CalendarDataError, MAX_STEPS, TooManyEventsError, expandBusy } from './busy-expansion';
import { storedSpans } from './busy-source-sync';

const DAY = 24 * 3600 * 1000;
/** The defaults of CALENDAR_SYNC_MAX_EVENTS and CALENDAR_SYNC_MAX_OCCURRENCES. */
const LIMITS = { maxEvents: 20_000, maxOccurrences: 50_000 };

/** The New York hours of `date` that some span overlaps. */
function busyHours(spans: { from: number; until: number }[], date: string): number[] {
  const hours: number[] = [];
  for (
    let t = DateTime.fromISO(date, { zone: NY });
    t.toISODate() === date;
    t = t.plus({ hours: 1 })
  ) {
    const from = t.toMillis();
    const until = t.plus({ hours: 1 }).toMillis();
    if (spans.some((s) => s.from < until && s.until > from)) hours.push(t.hour);
  }
  return hours;
}

describe('expandBusy: iCalendar events as busy time (ical.js)', () => {
  // Fixed days whose series cross both zones' changes of offset in March 2030.
  it.each(['2030-02-20T12:00:00Z', '2030-10-01T12:00:00Z', '2031-03-01T12:00:00Z'])(
    'leaves exactly the busy hours the scenario means (today %s)',
    (today) => {
      const now = DateTime.fromISO(today) as DateTime<true>;
      const s = scenario(now);
      const window = { from: now.toMillis() - DAY, until: now.toMillis() + 400 * DAY };
      const { spans, events } = expandBusy(
        [s.feed, s.nySeries, s.londonSeries],
        window,
        NY,
        LIMITS,
      );
      // 3 of the weekly series, the all-day, the UTC one; 4 and 4 of the two DST series.
      expect(events).toBe(13);
      for (const date of s.dates)
        expect({ date, hours: busyHours(spans, date) }).toEqual({
          date,
          hours: [...(s.busy.get(date) ?? [])].sort((a, b) => a - b),
        });
    },
  );

  it('reads a TZID by its VTIMEZONE (an Outlook name), floating times in the calendar zone', () => {
    const vtimezone = NY_VTIMEZONE.replace('TZID:America/New_York', 'TZID:Eastern Standard Time');
    const at = DateTime.fromISO('2030-07-01T09:00', { zone: NY });
    const text = vcalendar([
      vtimezone,
      vevent(['UID:a', `DTSTART;TZID=Eastern Standard Time:${local(at)}`, 'DURATION:PT30M']),
      vevent(['UID:b', `DTSTART:${local(at.plus({ days: 1 }))}`, 'DURATION:PT1H']),
    ]);
    const window = { from: at.toMillis() - DAY, until: at.toMillis() + 3 * DAY };
    const { spans } = expandBusy([text], window, 'Europe/Paris', LIMITS);
    expect(spans).toEqual([
      { from: at.toMillis(), until: at.plus({ minutes: 30 }).toMillis() },
      {
        from: DateTime.fromISO('2030-07-02T09:00', { zone: 'Europe/Paris' }).toMillis(),
        until: DateTime.fromISO('2030-07-02T10:00', { zone: 'Europe/Paris' }).toMillis(),
      },
    ]);
  });

  it('leaves out what is outside the window, and a series cancelled whole', () => {
    const at = DateTime.fromISO('2030-07-01T09:00', { zone: NY });
    const text = vcalendar([
      vevent(['UID:a', `DTSTART;TZID=${NY}:${local(at)}`, 'DURATION:PT1H', 'RRULE:FREQ=DAILY']),
      vevent([
        'UID:b',
        'STATUS:CANCELLED',
        `DTSTART;TZID=${NY}:${local(at)}`,
        'DURATION:PT1H',
        'RRULE:FREQ=DAILY',
      ]),
    ]);
    const window = {
      from: at.plus({ days: 10 }).toMillis(),
      until: at.plus({ days: 13 }).toMillis(),
    };
    expect(expandBusy([text], window, NY, LIMITS).spans).toEqual(
      [10, 11, 12].map((d) => ({
        from: at.plus({ days: d }).toMillis(),
        until: at.plus({ days: d, hours: 1 }).toMillis(),
      })),
    );
  });

  it('refuses data that is not iCalendar', () => {
    const window = { from: 0, until: Date.UTC(2031, 0, 1) };
    expect(() => expandBusy(['<html>nope</html>'], window, NY, LIMITS)).toThrow(CalendarDataError);
  });

  describe('bounds what one source may ask of it', () => {
    const window = { from: Date.UTC(2030, 0, 1), until: Date.UTC(2030, 0, 8) };
    const hourly = (uid: string, count: number) =>
      vevent([
        `UID:${uid}`,
        'DTSTART:20300101T000000Z',
        'DURATION:PT30M',
        `RRULE:FREQ=HOURLY;COUNT=${count}`,
      ]);
    const singles = (n: number, from = 0) =>
      Array.from({ length: n }, (_, i) =>
        vevent([`UID:s${from + i}`, 'DTSTART:20200101T000000Z', 'DURATION:PT1H']),
      );

    it('events: every VEVENT counts, in the window or not, over all the texts of the source', () => {
      const limits = { maxEvents: 10, maxOccurrences: 1000 };
      // Ten past events and no busy time: at the bound, read.
      expect(expandBusy([vcalendar(singles(10))], window, NY, limits)).toEqual({
        spans: [],
        events: 0,
      });
      const split = [vcalendar(singles(6)), vcalendar(singles(5, 6))];
      expect(() => expandBusy(split, window, NY, limits)).toThrow(
        new TooManyEventsError('more than 10 events'),
      );
    });

    it('occurrences: the busy ones in the window, a series counting each', () => {
      const limits = { maxEvents: 10, maxOccurrences: 100 };
      expect(expandBusy([vcalendar([hourly('a', 100)])], window, NY, limits).events).toBe(100);
      expect(() =>
        expandBusy([vcalendar([hourly('a', 60), hourly('b', 41)])], window, NY, limits),
      ).toThrow(new TooManyEventsError('more than 100 busy occurrences in the window'));
      // An endless series: the walk stops at the bound, not at the window's end.
      const minutely = vcalendar([
        vevent(['UID:m', 'DTSTART:20300101T000000Z', 'DURATION:PT1M', 'RRULE:FREQ=MINUTELY']),
      ]);
      expect(() => expandBusy([minutely], window, NY, limits)).toThrow(
        new TooManyEventsError('more than 100 busy occurrences in the window'),
      );
    });

    it('keeps only what of an event lies in the window: it is stored a day a row', () => {
      const millennia = vcalendar([
        vevent(['UID:long', 'DTSTART:10000101T000000Z', 'DTEND:30000101T000000Z']),
      ]);
      const { spans, events } = expandBusy([millennia], window, NY, LIMITS);
      expect({ spans, events }).toEqual({ spans: [window], events: 1 });
      expect(storedSpans(spans)).toHaveLength(7);
    });

    it(`steps: ${MAX_STEPS} by default, of all the source's series together, before the window too`, () => {
      // Hourly from 30 days before the window: 720 steps before it, 168 in it, and the walk goes on
      // 31 days past it (an occurrence moved in from there still counts): 1633 steps each.
      const series = (uid: string) =>
        vevent([`UID:${uid}`, 'DTSTART:20291202T000000Z', 'DURATION:PT1M', 'RRULE:FREQ=HOURLY']);
      const limits = { ...LIMITS, maxSteps: 2000 };
      expect(expandBusy([vcalendar([series('a')])], window, NY, limits).events).toBe(168);
      expect(() => expandBusy([vcalendar([series('a'), series('b')])], window, NY, limits)).toThrow(
        new TooManyEventsError('series repeating more than 2000 times'),
      );
    });
  });
});

describe('storedSpans: merged, then cut into days', () => {
  it('merges overlaps and cuts a week-long event into seven rows of at most a day', () => {
    expect(
      storedSpans([
        { from: 0, until: 10 },
        { from: 5, until: 20 },
        { from: 30, until: 30 + 7 * DAY },
      ]),
    ).toEqual([
      { from: 0, until: 20 },
      ...Array.from({ length: 7 }, (_, i) => ({ from: 30 + i * DAY, until: 30 + (i + 1) * DAY })),
    ]);
  });
});
