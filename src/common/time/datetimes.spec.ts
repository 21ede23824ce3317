import { DateTime } from 'luxon';
import fc from 'fast-check';
import {
  formatApiDatetime,
  formatClockTime,
  formatInZone,
  formatLongDate,
  momentInZone,
  parseDatetime,
} from './datetimes';

const iso = (value: string, zone: string) => {
  const parsed = parseDatetime(value, zone);
  return parsed.kind === 'moment' ? parsed.moment.toUTC().toISO() : parsed.kind;
};

describe('parseDatetime: the shapes clients send', () => {
  it.each([
    ['2026-03-03T14:30:00-0500', '2026-03-03T19:30:00.000Z'],
    ['2026-03-03T14:30:00-05:00', '2026-03-03T19:30:00.000Z'],
    ['2026-03-03T14:30:00+05', '2026-03-03T09:30:00.000Z'],
    ['2026-03-03T14:30:00Z', '2026-03-03T14:30:00.000Z'],
    ['2026-03-03T14:30Z', '2026-03-03T14:30:00.000Z'],
    ['2026-03-03 14:30:00+0000', '2026-03-03T14:30:00.000Z'],
    ['2026-03-03T14:30:00.250Z', '2026-03-03T14:30:00.250Z'],
    // no offset: read in the zone given (the calendar's)
    ['2026-03-03T14:30', '2026-03-03T19:30:00.000Z'],
    ['2026-03-03 14:30:00', '2026-03-03T19:30:00.000Z'],
    ['2026-07-03T14:30', '2026-07-03T18:30:00.000Z'],
  ])('%s → %s', (value, expected) => {
    expect(iso(value, 'America/New_York')).toBe(expected);
  });

  it.each([
    '',
    'tomorrow',
    '2026-03-03',
    '2026-3-3T14:30',
    '2026-02-30T10:00',
    '2026-03-03T25:00',
    '2026-03-03T24:00',
    '2026-03-03T24:00:00-0500',
    '2026-03-03T23:59:60Z',
    '2026-03-03T14:60',
    '2026-03-03T14:30:00+25:00',
    '2026-03-03T14:30:00 EST',
    '03/03/2026 14:30',
    '1772566200',
  ])('%p is invalid', (value) => {
    expect(iso(value, 'America/New_York')).toBe('invalid');
  });

  it('refuses a local time inside a DST gap, which a zone never shows', () => {
    expect(iso('2026-03-08T02:30', 'America/New_York')).toBe('nonexistent');
    expect(iso('2026-03-29T02:15', 'Europe/Paris')).toBe('nonexistent');
    // the same wall time with an explicit offset is a real moment
    expect(iso('2026-03-08T02:30:00-0500', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
  });

  it('reads the repeated hour of a fall-back day as its first occurrence', () => {
    expect(iso('2026-11-01T01:30', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
  });
});

describe('parseDatetime: the years 1900–2999, as written', () => {
  it.each([
    ['1900-01-01T00:00', 'America/New_York', '1900-01-01T05:00:00.000Z'],
    ['2999-12-31T23:59:59', 'America/New_York', '3000-01-01T04:59:59.000Z'],
    // Offsets that carry the instant past the edge: the year written is the one that counts.
    ['1900-01-01T00:00', 'Etc/GMT-14', '1899-12-31T10:00:00.000Z'],
    ['1900-01-01T00:00:00+1400', 'UTC', '1899-12-31T10:00:00.000Z'],
    ['1900-01-01T00:00:00+18:00', 'UTC', '1899-12-31T06:00:00.000Z'],
    ['2999-12-31T23:30', 'Etc/GMT+12', '3000-01-01T11:30:00.000Z'],
    ['2999-12-31T23:59:59.999-1200', 'UTC', '3000-01-01T11:59:59.999Z'],
    ['2999-12-31T23:59:59-18:00', 'UTC', '3000-01-01T17:59:59.000Z'],
  ])('takes %s (in %s) → %s', (value, zone, expected) => {
    expect(iso(value, zone)).toBe(expected);
  });

  it.each([
    // Offsets that bring the instant back inside: still the year written.
    ['1899-12-31T23:59:59-1200', 'UTC'],
    ['1899-12-31T23:30', 'Etc/GMT+12'],
    ['3000-01-01T00:00:00+1400', 'UTC'],
    ['3000-01-01T00:00', 'Etc/GMT-14'],
    ['0000-01-01T10:00', 'America/New_York'],
    ['0001-01-01T00:00Z', 'UTC'],
    ['1000-01-01T00:00Z', 'UTC'],
    ['9999-12-31T23:59:59Z', 'UTC'],
    ['275760-09-13T00:00:00Z', 'UTC'],
    ['+002026-03-03T10:00Z', 'UTC'],
  ])('refuses %s (in %s)', (value, zone) => {
    expect(iso(value, zone)).toBe('invalid');
  });

  it('reads every wall time of the years in any zone as an instant a DATETIME stores', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          'Etc/GMT-14',
          'Etc/GMT+12',
          'Pacific/Kiritimati',
          'America/New_York',
          'UTC',
        ),
        fc.date({
          min: new Date('1900-01-01T00:00Z'),
          max: new Date('2999-12-31T23:59Z'),
          noInvalidDate: true,
        }),
        fc.constantFrom('', '+1400', '-1200', '+18:00', '-18:00', 'Z'),
        (zone, wall, offset) => {
          const text = `${wall.toISOString().slice(0, 16)}${offset}`;
          const parsed = parseDatetime(text, zone);
          expect({ text, kind: parsed.kind === 'invalid' ? 'invalid' : 'read' }).toEqual({
            text,
            kind: 'read',
          });
          if (parsed.kind !== 'moment') return;
          const year = parsed.moment.toUTC().year;
          expect(year >= 1899 && year <= 3000).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('formatApiDatetime', () => {
  it.each([
    ['2026-03-03T19:30:00Z', 'America/New_York', '2026-03-03T14:30:00-0500'],
    ['2026-07-03T18:30:00Z', 'America/New_York', '2026-07-03T14:30:00-0400'],
    ['2026-03-03T19:30:00Z', 'Asia/Kolkata', '2026-03-04T01:00:00+0530'],
    ['2026-03-03T19:30:00Z', 'UTC', '2026-03-03T19:30:00+0000'],
  ])('%s in %s → %s', (utc, zone, expected) => {
    expect(formatInZone(new Date(utc), zone)).toBe(expected);
    expect(formatApiDatetime(DateTime.fromISO(utc, { zone }))).toBe(expected);
  });
});

describe('appointment formats', () => {
  it.each([
    ['2026-03-03T19:30:00Z', 'America/New_York', 'March 3, 2026', '2:30pm'],
    ['2026-03-03T05:00:00Z', 'America/New_York', 'March 3, 2026', '12:00am'],
    ['2026-03-03T17:00:00Z', 'America/New_York', 'March 3, 2026', '12:00pm'],
    ['2026-12-31T23:15:00Z', 'Asia/Kathmandu', 'January 1, 2027', '5:00am'],
    ['2026-11-01T05:30:00Z', 'America/New_York', 'November 1, 2026', '1:30am'],
    ['2026-11-01T06:30:00Z', 'America/New_York', 'November 1, 2026', '1:30am'],
  ])('%s in %s → %s %s', (utc, zone, date, time) => {
    const moment = DateTime.fromISO(utc, { zone });
    expect(formatLongDate(moment)).toBe(date);
    expect(formatClockTime(moment)).toBe(time);
  });
});

describe('the formats, written by arithmetic', () => {
  it('match what luxon writes for any moment in any zone', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          'America/New_York',
          'Australia/Lord_Howe',
          'Asia/Kathmandu',
          'America/St_Johns',
          'Pacific/Chatham',
          'America/Santiago',
          'UTC',
        ),
        fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2100, 0, 1) }),
        (zone, instant) => {
          const moment = DateTime.fromMillis(instant, { zone }).setLocale('en-US');
          expect(formatApiDatetime(moment)).toBe(moment.toFormat("yyyy-MM-dd'T'HH:mm:ssZZZ"));
          expect(formatLongDate(moment)).toBe(moment.toFormat('LLLL d, yyyy'));
          expect(formatClockTime(moment)).toBe(moment.toFormat('h:mma').toLowerCase());
        },
      ),
      { numRuns: 5000 },
    );
  });
});

describe('momentInZone', () => {
  const zones = [
    'America/New_York',
    'Europe/London',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
    'America/Santiago',
    'America/Havana',
    'UTC',
  ];
  const show = (moment: DateTime) => moment.toFormat("yyyy-MM-dd'T'HH:mm:ss.SSSZZZ");

  it('shows every moment as the zone itself does, around offset changes too', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        // 1990–2040, to the millisecond.
        fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2040, 0, 1) }),
        (zone, instant) => {
          expect(show(momentInZone(instant, zone))).toBe(
            show(DateTime.fromMillis(instant, { zone })),
          );
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('is exact in the minutes before and after a change of offset', () => {
    // New York 2026-03-08 02:00 EST → 03:00 EDT (07:00Z); Lord Howe 2026-04-05 02:00 → 01:30 (15:00Z).
    for (const [zone, change] of [
      ['America/New_York', Date.UTC(2026, 2, 8, 7)],
      ['Australia/Lord_Howe', Date.UTC(2026, 3, 4, 15)],
    ] as const)
      for (let instant = change - 20 * 60_000; instant <= change + 20 * 60_000; instant += 30_000)
        expect(show(momentInZone(new Date(instant), zone))).toBe(
          show(DateTime.fromMillis(instant, { zone })),
        );
  });
});
