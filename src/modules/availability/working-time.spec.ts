import { HOUR } from '../../common/time/durations';
import { MONDAY, NY, at } from './slot-engine.fixtures';
import { workingSpans } from './working-time';

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
