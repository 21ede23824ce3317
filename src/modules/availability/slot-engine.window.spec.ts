import { DAY, HOUR } from '../../common/time/durations';
import { type SlotRules, advanceWindow, freeStarts } from './slot-engine';
import {
  LONG_AGO,
  MONDAY,
  NY,
  around,
  at,
  calendar,
  hhmm,
  iso,
  local,
  rules,
} from './slot-engine.fixtures';

/*
 * Hand-worked cases of the slot engine (freeStarts within the advance bounds and the window asked
 * for); how they are written: slot-engine.fixtures.ts.
 */

describe('freeStarts: advance bounds', () => {
  const cal = calendar(NY, { monday: [at('09:00', '12:00')] });
  const starts = (rule: Partial<SlotRules>, now: number) =>
    hhmm(NY, freeStarts(cal, rules(rule), around(MONDAY), now));
  const all = ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30'];

  it('minHoursInAdvance: a start equal to now + min hours is allowed', () => {
    expect(starts({ minHoursInAdvance: 1 }, local(NY, `${MONDAY}T08:00`))).toEqual(all);
  });

  it('minHoursInAdvance: one millisecond earlier is not', () => {
    expect(starts({ minHoursInAdvance: 1 }, local(NY, `${MONDAY}T08:00:00.001`))).toEqual(
      all.slice(1),
    );
  });

  it('minHoursInAdvance cuts mid-slot: the next grid start, not a shifted grid', () => {
    expect(starts({ minHoursInAdvance: 2 }, local(NY, `${MONDAY}T08:10`))).toEqual([
      '10:30',
      '11:00',
      '11:30',
    ]);
  });

  it('minHoursInAdvance 0: a start at now is allowed, one in the past is not', () => {
    expect(starts({}, local(NY, `${MONDAY}T10:00`))).toEqual(['10:00', '10:30', '11:00', '11:30']);
  });

  it('maxDaysInAdvance: a start equal to now + max days is allowed', () => {
    expect(starts({ maxDaysInAdvance: 1 }, local(NY, '2026-06-14T11:00'))).toEqual(all.slice(0, 5));
  });

  it('maxDaysInAdvance: a start one millisecond after now + max days is not', () => {
    expect(starts({ maxDaysInAdvance: 1 }, local(NY, '2026-06-14T10:59:59.999'))).toEqual(
      all.slice(0, 4),
    );
  });

  it('maxDaysInAdvance counts days of 24 real hours', () => {
    // From Saturday 11:00 EDT, 2 days is Monday 11:00 EDT; no DST change in between.
    expect(starts({ maxDaysInAdvance: 2 }, local(NY, '2026-06-13T11:00'))).toEqual(all.slice(0, 5));
    expect(starts({ maxDaysInAdvance: 2 }, local(NY, '2026-06-13T10:00'))).toEqual(all.slice(0, 3));
  });

  it('maxDaysInAdvance 0 with minHoursInAdvance 0: only now itself', () => {
    expect(starts({ maxDaysInAdvance: 0 }, local(NY, `${MONDAY}T10:30`))).toEqual(['10:30']);
    expect(starts({ maxDaysInAdvance: 0 }, local(NY, `${MONDAY}T10:31`))).toEqual([]);
  });

  it('a min bound past the max bound leaves nothing', () => {
    expect(
      starts({ minHoursInAdvance: 48, maxDaysInAdvance: 1 }, local(NY, '2026-06-14T08:00')),
    ).toEqual([]);
  });

  it('advanceWindow is [now + min hours, now + max days]', () => {
    expect(advanceWindow({ minHoursInAdvance: 2, maxDaysInAdvance: 3 }, 1_000)).toEqual({
      earliest: 1_000 + 2 * HOUR,
      latest: 1_000 + 3 * DAY,
    });
  });
});

describe('freeStarts: the window', () => {
  const cal = calendar(NY, { monday: [at('09:00', '12:00')], tuesday: [at('09:00', '10:00')] });
  const within = (from: string, until: string) =>
    iso(NY, freeStarts(cal, rules(), { from: local(NY, from), until: local(NY, until) }, LONG_AGO));

  it('from is inclusive, until exclusive', () => {
    expect(within(`${MONDAY}T09:30`, `${MONDAY}T11:00`)).toEqual([
      '2026-06-15T09:30-04:00',
      '2026-06-15T10:00-04:00',
      '2026-06-15T10:30-04:00',
    ]);
  });

  it('a window starting mid-slot keeps the grid of the working span', () => {
    expect(within(`${MONDAY}T09:45`, `${MONDAY}T11:00`)).toEqual([
      '2026-06-15T10:00-04:00',
      '2026-06-15T10:30-04:00',
    ]);
  });

  it('a window ending inside a slot still offers that slot', () => {
    // Only the start has to be inside the window; the slot itself may run past it.
    expect(within(`${MONDAY}T11:00`, `${MONDAY}T11:31`)).toEqual([
      '2026-06-15T11:00-04:00',
      '2026-06-15T11:30-04:00',
    ]);
  });

  it('a window over several days, in order', () => {
    expect(within(`${MONDAY}T11:30`, '2026-06-16T09:30:00.001')).toEqual([
      '2026-06-15T11:30-04:00',
      '2026-06-16T09:00-04:00',
      '2026-06-16T09:30-04:00',
    ]);
  });

  it('an empty or reversed window has nothing', () => {
    expect(within(`${MONDAY}T10:00`, `${MONDAY}T10:00`)).toEqual([]);
    expect(within(`${MONDAY}T11:00`, `${MONDAY}T10:00`)).toEqual([]);
  });
});
