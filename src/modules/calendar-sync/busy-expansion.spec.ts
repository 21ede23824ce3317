import { DateTime } from 'luxon';
import {
  NY,
  NY_VTIMEZONE,
  local,
  scenario,
  vcalendar,
  vevent,
} from '../../../test/calendar-sync/calendar-data';
import { CalendarDataError, MAX_OCCURRENCES, expandBusy } from './busy-expansion';
import { storedSpans } from './busy-source-sync';

const DAY = 24 * 3600 * 1000;

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
      const { spans, events } = expandBusy([s.feed, s.nySeries, s.londonSeries], window, NY);
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
    const { spans } = expandBusy([text], window, 'Europe/Paris');
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
    expect(expandBusy([text], window, NY).spans).toEqual(
      [10, 11, 12].map((d) => ({
        from: at.plus({ days: d }).toMillis(),
        until: at.plus({ days: d, hours: 1 }).toMillis(),
      })),
    );
  });

  it('refuses data that is not iCalendar, and a feed with too many events', () => {
    const window = { from: 0, until: Date.UTC(2031, 0, 1) };
    expect(() => expandBusy(['<html>nope</html>'], window, NY)).toThrow(CalendarDataError);
    const minutely = vcalendar([
      vevent(['UID:m', 'DTSTART:20300101T000000Z', 'DURATION:PT1M', 'RRULE:FREQ=MINUTELY']),
    ]);
    expect(() => expandBusy([minutely], window, NY)).toThrow(
      `more than ${MAX_OCCURRENCES} busy events in the window`,
    );
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
