import { DAY, HOUR, MINUTE } from '../../common/time/durations';
import { checkSession, checkStart, freeStarts } from './slot-engine';
import { MONDAY, NY, at, calendar, hhmm, local, rules } from './slot-engine.fixtures';
import type { Span } from './working-time';

/*
 * Hand-worked cases of the slot engine (checkStart and checkSession, the checks of one start); how
 * they are written: slot-engine.fixtures.ts.
 */

describe('checkStart', () => {
  const busy: Span[] = [
    { from: local(NY, `${MONDAY}T10:00`), until: local(NY, `${MONDAY}T10:30`) },
  ];
  const cal = calendar(NY, { monday: [at('09:00', '12:00')] }, {}, busy);
  const rule = rules({ minHoursInAdvance: 1, maxDaysInAdvance: 1, paddingBefore: 5 });
  const now = local(NY, `${MONDAY}T08:30`);

  it('agrees with freeStarts every 5 minutes of the day and on off-grid instants', () => {
    const day = { from: local(NY, `${MONDAY}T00:00`), until: local(NY, '2026-06-16T00:00') };
    const free = new Set(freeStarts(cal, rule, day, now));
    // 9:30 (from now + 1h) uses 9:25-10:00 and touches the busy 10:00-10:30; 10:30 would use
    // 10:25-11:00, its padding inside it.
    expect(hhmm(NY, [...free])).toEqual(['09:30', '11:00', '11:30']);
    for (let start = day.from; start < day.until; start += 5 * MINUTE) {
      expect([start, checkStart(cal, rule, start, now) === null]).toEqual([start, free.has(start)]);
    }
    for (const start of [...free].flatMap((s) => [s + 1, s + 1000, s + MINUTE])) {
      expect(checkStart(cal, rule, start, now)).toBe('not_available');
    }
  });

  it('reasons in order: min hours, then max days, then not_available', () => {
    const reason = (wall: string, at = now) => checkStart(cal, rule, local(NY, wall), at);
    // Before now + 1h, even where nothing would be free anyway.
    expect(reason(`${MONDAY}T09:00`)).toBe('not_available_min_hours_in_advance');
    expect(reason(`${MONDAY}T03:17`)).toBe('not_available_min_hours_in_advance');
    expect(reason(`${MONDAY}T09:29:59.999`)).toBe('not_available_min_hours_in_advance');
    // At now + 1h exactly: the advance bound passes, then the slot itself is judged.
    expect(reason(`${MONDAY}T09:30`)).toBeNull();
    // After now + 1 day, even off the grid.
    expect(reason('2026-06-16T08:30:00.001')).toBe('not_available_max_days_in_advance');
    expect(reason('2026-06-22T10:30')).toBe('not_available_max_days_in_advance');
    // Inside the advance window: off the grid, busy, closed.
    expect(reason(`${MONDAY}T10:15`)).toBe('not_available');
    expect(reason(`${MONDAY}T10:00`)).toBe('not_available');
    expect(reason(`${MONDAY}T13:00`)).toBe('not_available');
    expect(reason('2026-06-16T08:30')).toBe('not_available');
    expect(reason(`${MONDAY}T10:30`)).toBe('not_available'); // its padding overlaps the busy span
    expect(reason(`${MONDAY}T11:00`)).toBeNull();
    // Both bounds broken at once (min past max): min hours is reported first.
    const inverted = rules({ minHoursInAdvance: 48, maxDaysInAdvance: 1 });
    expect(checkStart(cal, inverted, local(NY, '2026-06-16T12:00'), now)).toBe(
      'not_available_min_hours_in_advance',
    );
  });

  it('the max-days bound is inclusive', () => {
    const from = local(NY, '2026-06-14T11:00');
    const max = rules({ maxDaysInAdvance: 1 });
    expect(checkStart(cal, max, local(NY, `${MONDAY}T11:00`), from)).toBeNull();
    expect(checkStart(cal, max, local(NY, `${MONDAY}T11:00`), from - 1)).toBe(
      'not_available_max_days_in_advance',
    );
  });
});

describe('checkSession', () => {
  const start = local(NY, `${MONDAY}T18:00`);
  const rule = { minHoursInAdvance: 2, maxDaysInAdvance: 7 };
  const now = local(NY, `${MONDAY}T12:00`);

  it('a free seat: bookable', () => {
    expect(checkSession({ start, seats: 10, taken: 9 }, rule, now)).toBeNull();
    expect(checkSession({ start, seats: 1, taken: 0 }, rule, now)).toBeNull();
  });

  it('full (or over-full): not_available', () => {
    expect(checkSession({ start, seats: 10, taken: 10 }, rule, now)).toBe('not_available');
    expect(checkSession({ start, seats: 10, taken: 11 }, rule, now)).toBe('not_available');
    expect(checkSession({ start, seats: 0, taken: 0 }, rule, now)).toBe('not_available');
  });

  it('advance bounds, inclusive at both ends, checked before the seats', () => {
    const full = { start, seats: 3, taken: 3 };
    const free = { start, seats: 3, taken: 0 };
    expect(checkSession(free, rule, start - 2 * HOUR)).toBeNull();
    expect(checkSession(free, rule, start - 2 * HOUR + 1)).toBe(
      'not_available_min_hours_in_advance',
    );
    expect(checkSession(full, rule, start - HOUR)).toBe('not_available_min_hours_in_advance');
    expect(checkSession(free, rule, start - 7 * DAY)).toBeNull();
    expect(checkSession(free, rule, start - 7 * DAY - 1)).toBe('not_available_max_days_in_advance');
    expect(checkSession(full, rule, start - 8 * DAY)).toBe('not_available_max_days_in_advance');
    expect(checkSession(full, rule, now)).toBe('not_available');
  });
});
