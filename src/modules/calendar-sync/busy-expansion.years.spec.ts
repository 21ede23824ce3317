import { expandBusy } from './busy-expansion';
import { storedSpans } from './busy-source-sync';

const DAY = 24 * 3600 * 1000;
const LIMITS = { maxEvents: 20_000, maxOccurrences: 50_000 };
const NOW = Date.UTC(2030, 5, 3, 12);
/** A sync's window: a day back, a year and two days ahead. */
const WINDOW = { from: NOW - DAY, until: NOW + 367 * DAY };

const calendar = (...events: string[][]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//years//EN',
    ...events.flatMap((lines) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT']),
    'END:VCALENDAR',
  ].join('\r\n');

/**
 * A staff calendar's events at the edges of what iCalendar writes (years 0000 and 9999), read
 * through ical.js and luxon as every event is: the busy time a sync stores is only the part inside
 * its window, so it never writes an instant a DATETIME does not hold (nor 3.65 million day-long rows
 * for one event, as it did before spans were cut to the window).
 */
describe('expandBusy: events of any year are cut to the window', () => {
  it.each([
    [
      'an all-day event from 0000 to 9999',
      ['DTSTART;VALUE=DATE:00000101', 'DTEND;VALUE=DATE:99991231'],
    ],
    ['a UTC event from 0000 to 9999', ['DTSTART:00000101T100000Z', 'DTEND:99991231T100000Z']],
    [
      'a zoned event from 0000 to 9999',
      [
        'DTSTART;TZID=America/New_York:00000101T100000',
        'DTEND;TZID=America/New_York:99990101T100000',
      ],
    ],
  ])('%s: busy for the whole window, stored as a day a row', (_, lines) => {
    const { spans, events } = expandBusy(
      [calendar(['UID:forever', ...lines])],
      WINDOW,
      'America/New_York',
      LIMITS,
    );
    expect({ spans, events }).toEqual({ spans: [WINDOW], events: 1 });
    const stored = storedSpans(spans);
    expect(stored).toHaveLength(368);
    expect(stored[0].from).toBe(WINDOW.from);
    expect(stored[stored.length - 1].until).toBe(WINDOW.until);
  });

  it('leaves out events wholly in year 0000 or 9999, and keeps one inside whole', () => {
    const inside = Date.UTC(2030, 5, 4, 14);
    const { spans } = expandBusy(
      [
        calendar(
          ['UID:a', 'DTSTART:00000101T100000Z', 'DURATION:PT1H'],
          ['UID:b', 'DTSTART:99991231T100000Z', 'DURATION:PT1H'],
          ['UID:c', 'DTSTART;VALUE=DATE:99991231'],
          ['UID:d', 'DTSTART:20300604T140000Z', 'DURATION:PT1H'],
        ),
      ],
      WINDOW,
      'America/New_York',
      LIMITS,
    );
    expect(spans).toEqual([{ from: inside, until: inside + 3600_000 }]);
  });

  it('cuts a series begun in year 0000 to the window', () => {
    const { spans } = expandBusy(
      [
        calendar([
          'UID:s',
          'DTSTART:00000101T100000Z',
          'DTEND:99990101T100000Z',
          'RRULE:FREQ=YEARLY',
        ]),
      ],
      WINDOW,
      'UTC',
      { ...LIMITS, maxSteps: 20_000 },
    );
    expect(spans.every((s) => s.from >= WINDOW.from && s.until <= WINDOW.until)).toBe(true);
    expect(spans.length).toBeGreaterThan(0);
  });
});
