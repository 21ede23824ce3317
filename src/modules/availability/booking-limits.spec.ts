import { DateTime } from 'luxon';
import { hasLimits, limitPeriods } from './booking-limits';

const at = (iso: string, zone: string) => DateTime.fromISO(iso, { zone }).toMillis();
const iso = (millis: number, zone: string) => DateTime.fromMillis(millis, { zone }).toISO();

describe('limitPeriods: the local day and ISO week a booking limit counts in', () => {
  it.each([
    // A plain Wednesday: Monday 00:00 to the next Monday.
    [
      '2030-06-05T15:00',
      'America/New_York',
      '2030-06-05T00:00:00.000-04:00',
      '2030-06-06T00:00:00.000-04:00',
      '2030-06-03T00:00:00.000-04:00',
      '2030-06-10T00:00:00.000-04:00',
    ],
    // Sunday belongs to the week that began the Monday before.
    [
      '2030-06-09T23:30',
      'America/New_York',
      '2030-06-09T00:00:00.000-04:00',
      '2030-06-10T00:00:00.000-04:00',
      '2030-06-03T00:00:00.000-04:00',
      '2030-06-10T00:00:00.000-04:00',
    ],
    // The spring-forward day lasts 23 hours; its week 167.
    [
      '2030-03-10T12:00',
      'America/New_York',
      '2030-03-10T00:00:00.000-05:00',
      '2030-03-11T00:00:00.000-04:00',
      '2030-03-04T00:00:00.000-05:00',
      '2030-03-11T00:00:00.000-04:00',
    ],
    // The same instant is another day in another zone.
    [
      '2030-06-05T23:30',
      'Asia/Tokyo',
      '2030-06-05T00:00:00.000+09:00',
      '2030-06-06T00:00:00.000+09:00',
      '2030-06-03T00:00:00.000+09:00',
      '2030-06-10T00:00:00.000+09:00',
    ],
  ])('%s in %s', (start, zone, dayFrom, dayUntil, weekFrom, weekUntil) => {
    const { day, week } = limitPeriods(at(start, zone), zone);
    expect([
      iso(day.from, zone),
      iso(day.until, zone),
      iso(week.from, zone),
      iso(week.until, zone),
    ]).toEqual([dayFrom, dayUntil, weekFrom, weekUntil]);
  });

  it('a day or a week without a limit is no limit', () => {
    expect(hasLimits({ maxPerDay: null, maxPerWeek: null })).toBe(false);
    expect(hasLimits({ maxPerDay: 1, maxPerWeek: null })).toBe(true);
    expect(hasLimits({ maxPerDay: null, maxPerWeek: 3 })).toBe(true);
  });
});
