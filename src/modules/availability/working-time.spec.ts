import { DAY, HOUR } from '../../common/time/durations';
import { MONDAY, NY, at } from './slot-engine.fixtures';
import { nextDate, workingSpans } from './working-time';

/*
 * Hand-worked cases of the slot engine (workingSpans); how they are written: slot-
 * engine.fixtures.ts.
 */

describe('workingSpans', () => {
  it('is the real time of the hours, merged where they touch', () => {
    const spans = workingSpans(
      NY,
      { monday: [at('09:00', '10:00'), at('10:00', '11:00'), at('13:00', '14:00')] },
      {},
      MONDAY,
    );
    expect(spans).toEqual([
      { from: Date.UTC(2026, 5, 15, 13), until: Date.UTC(2026, 5, 15, 15) },
      { from: Date.UTC(2026, 5, 15, 17), until: Date.UTC(2026, 5, 15, 18) },
    ]);
  });

  it('a fall-back day of 00:00-24:00 is 25 hours, a spring-forward day 23', () => {
    const allDay = { sunday: [at('00:00', '24:00')] };
    const length = (date: string) =>
      workingSpans(NY, allDay, {}, date).reduce((sum, s) => sum + s.until - s.from, 0);
    expect(length('2026-11-01')).toBe(25 * HOUR);
    expect(length('2026-03-08')).toBe(23 * HOUR);
    expect(length('2026-06-14')).toBe(24 * HOUR);
  });
});

describe('nextDate', () => {
  it.each([
    ['2026-06-01', '2026-06-02'],
    ['2026-06-09', '2026-06-10'],
    ['2026-06-27', '2026-06-28'],
    ['2026-02-28', '2026-03-01'],
    ['2028-02-28', '2028-02-29'],
    ['2028-02-29', '2028-03-01'],
    ['2026-04-30', '2026-05-01'],
    ['2026-12-31', '2027-01-01'],
    ['1899-12-31', '1900-01-01'],
    ['2100-02-28', '2100-03-01'],
    ['2000-02-28', '2000-02-29'],
    ['2026-02-30', '2026-03-03'],
    ['9999-12-30', '9999-12-31'],
  ])('%s → %s', (date, next) => {
    expect(nextDate(date)).toBe(next);
  });

  it('is the next day of the UTC calendar, every day of a few centuries', () => {
    for (let day = Date.UTC(1899, 0, 1); day < Date.UTC(2101, 0, 1); day += DAY) {
      const date = new Date(day).toISOString().slice(0, 10);
      expect(nextDate(date)).toBe(new Date(day + DAY).toISOString().slice(0, 10));
    }
  });
});
