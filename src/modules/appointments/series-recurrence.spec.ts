import { DateTime } from 'luxon';
import { type Recurrence, occurrencesOf, readRecurrence } from './series-recurrence';

const at = (iso: string, zone: string) => DateTime.fromISO(iso, { zone }).toMillis();
const shown = (start: number | null, zone: string) =>
  start === null
    ? null
    : DateTime.fromMillis(start, { zone }).toISO({ suppressMilliseconds: true });
const weekly = (count: number, interval = 1): Recurrence => ({
  frequency: 'weekly',
  interval,
  count,
});

describe('occurrencesOf', () => {
  it.each([
    ['America/New_York', '2030-02-26T09:00', ['-05:00', '-04:00'], '2030-03-10'],
    ['Europe/London', '2030-03-19T09:00', ['Z', '+01:00'], '2030-03-31'],
  ])(
    'keeps a weekly series at 9:00 in %s across the spring change, the offset changing under it',
    (zone, first, offsets) => {
      const series = occurrencesOf(at(first, zone), zone, weekly(4));
      expect(series.map((o) => o.local.slice(11, 16))).toEqual([
        '09:00',
        '09:00',
        '09:00',
        '09:00',
      ]);
      const instants = series.map((o) => shown(o.start, zone)!);
      expect(instants[0].endsWith(offsets[0] === 'Z' ? '+00:00' : offsets[0])).toBe(true);
      expect(instants[3].endsWith(offsets[1])).toBe(true);
      // A week apart on the wall clock; 167 hours across the change.
      const hours = series.slice(1).map((o, i) => (o.start! - series[i].start!) / 3_600_000);
      expect(hours.filter((h) => h === 167)).toHaveLength(1);
      expect(hours.filter((h) => h === 168)).toHaveLength(2);
    },
  );

  it('keeps the wall-clock time across both changes of a year, every other week', () => {
    const zone = 'America/New_York';
    const series = occurrencesOf(at('2030-01-07T09:30', zone), zone, weekly(26, 2));
    expect(
      new Set(series.map((o) => DateTime.fromMillis(o.start!, { zone }).toFormat('ccc HH:mm'))),
    ).toEqual(new Set(['Mon 09:30']));
    expect(series[25].local).toBe('2030-12-23T09:30:00');
  });

  it('gives no start to a local time the zone skips, and the earlier instant to one it shows twice', () => {
    const zone = 'America/New_York';
    const skipped = occurrencesOf(at('2030-03-09T02:30', zone), zone, {
      frequency: 'daily',
      interval: 1,
      count: 3,
    });
    expect(skipped.map((o) => o.start === null)).toEqual([false, true, false]);
    expect(skipped[1].local).toBe('2030-03-10T02:30:00');
    const twice = occurrencesOf(at('2030-11-02T01:30', zone), zone, {
      frequency: 'daily',
      interval: 1,
      count: 2,
    });
    expect(shown(twice[1].start, zone)).toBe('2030-11-03T01:30:00-04:00');
  });

  it('keeps the day of the month, and refuses a series that reaches a day a month lacks', () => {
    const zone = 'Europe/London';
    const monthly = (count: number, interval = 1): Recurrence => ({
      frequency: 'monthly',
      interval,
      count,
    });
    expect(
      occurrencesOf(at('2030-01-15T10:00', zone), zone, monthly(3)).map((o) => o.local),
    ).toEqual(['2030-01-15T10:00:00', '2030-02-15T10:00:00', '2030-03-15T10:00:00']);
    expect(
      occurrencesOf(at('2030-01-31T10:00', zone), zone, monthly(4, 2)).map((o) => o.local),
    ).toEqual([
      '2030-01-31T10:00:00',
      '2030-03-31T10:00:00',
      '2030-05-31T10:00:00',
      '2030-07-31T10:00:00',
    ]);
    expect(() => occurrencesOf(at('2030-01-31T10:00', zone), zone, monthly(5, 2))).toThrow(
      expect.objectContaining({
        code: 'invalid_recurrence',
        message: 'The series reaches day 31 of September 2030, which has 30 days (occurrence 5).',
      }),
    );
    expect(() => occurrencesOf(at('2030-01-29T10:00', zone), zone, monthly(2))).toThrow(
      'The series reaches day 29 of February 2030, which has 28 days (occurrence 2).',
    );
  });
});

describe('readRecurrence', () => {
  it('reads a frequency, an interval (1 when left out) and a count', () => {
    expect(readRecurrence({ frequency: 'weekly', count: 6 })).toEqual(weekly(6));
    expect(readRecurrence({ frequency: 'monthly', interval: 12, count: 52 })).toEqual({
      frequency: 'monthly',
      interval: 12,
      count: 52,
    });
  });

  it.each([
    ['weekly', 'The recurrence must be an object: {"frequency", "interval", "count"}.'],
    [[1], 'The recurrence must be an object: {"frequency", "interval", "count"}.'],
    [
      { frequency: 'yearly', count: 2 },
      'The recurrence frequency "yearly" is invalid: one of daily, weekly, monthly.',
    ],
    [{ count: 2 }, 'The recurrence frequency is required: one of daily, weekly, monthly.'],
    [
      { frequency: 'daily', interval: 0, count: 2 },
      'The recurrence interval "0" is invalid: a whole number from 1 to 12.',
    ],
    [
      { frequency: 'daily', interval: '2', count: 2 },
      'The recurrence interval "2" is invalid: a whole number from 1 to 12.',
    ],
    [
      { frequency: 'daily', interval: 1.5, count: 2 },
      'The recurrence interval "1.5" is invalid: a whole number from 1 to 12.',
    ],
    [
      { frequency: 'daily', count: 1 },
      'The recurrence count "1" is invalid: a whole number from 2 to 52.',
    ],
    [
      { frequency: 'daily', count: 53 },
      'The recurrence count "53" is invalid: a whole number from 2 to 52.',
    ],
    [{ frequency: 'daily' }, 'The recurrence count is required: a whole number from 2 to 52.'],
  ])('refuses %j with invalid_recurrence', (value, message) => {
    expect(() => readRecurrence(value)).toThrow(
      expect.objectContaining({ status: 400, code: 'invalid_recurrence', message }),
    );
  });

  it('asks for a recurrence left out (or null) with required_recurrence', () => {
    for (const value of [undefined, null])
      expect(() => readRecurrence(value)).toThrow(
        expect.objectContaining({
          status: 400,
          code: 'required_recurrence',
          message: 'The parameter "recurrence" is required.',
        }),
      );
  });
});
