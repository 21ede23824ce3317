import { DateTime } from 'luxon';
import { DAY, HOUR } from '../../common/time/durations';
import type { DateOverrides, Interval, WeeklyHours } from '../catalog/working-hours';
import { type CalendarSchedule, type SlotRules, freeStarts } from './slot-engine';
import type { Span } from './working-time';

/*
 * What the hand-worked cases of the slot engine share (slot-engine.*.spec.ts and
 * working-time.spec.ts). Every expectation there is written out as local wall-clock times (with the
 * offset where a DST change makes it matter), worked out from the rules, not read back from the
 * engine.
 */

export const NY = 'America/New_York';
/** A Monday in June: no DST change anywhere near it. */
export const MONDAY = '2026-06-15';

export const at = (start: string, end: string): Interval => ({ start, end });

export function calendar(
  zone: string,
  hours: WeeklyHours,
  overrides: DateOverrides = {},
  busy: Span[] = [],
): CalendarSchedule {
  return { zone, hours, overrides, busy };
}

export function rules(overrides: Partial<SlotRules> = {}): SlotRules {
  return {
    duration: 30,
    paddingBefore: 0,
    paddingAfter: 0,
    slotInterval: 30,
    minHoursInAdvance: 0,
    maxDaysInAdvance: 1000,
    ...overrides,
  };
}

/** Long before every date used here, so the advance window never cuts unless a test says so. */
export const LONG_AGO = Date.UTC(2025, 0, 1);

/** An unambiguous local time (`2026-06-15T09:30`) as an instant. */
export function local(zone: string, wall: string): number {
  const time = DateTime.fromISO(wall, { zone });
  if (!time.isValid) throw new Error(`bad local time ${wall}`);
  return time.toMillis();
}

/** A window of real time that surely holds all of `date` in any zone, and a day either side. */
export function around(date: string): Span {
  const [year, month, day] = date.split('-').map(Number);
  const midnight = Date.UTC(year, month - 1, day);
  return { from: midnight - DAY - 14 * HOUR, until: midnight + 2 * DAY + 12 * HOUR };
}

/** Starts as `HH:mm` in the zone. */
export function hhmm(zone: string, starts: number[]): string[] {
  return starts.map((start) => DateTime.fromMillis(start, { zone }).toFormat('HH:mm'));
}

/** Starts as `HH:mm±hh:mm` in the zone: the wall time and the offset it is read with. */
export function withOffset(zone: string, starts: number[]): string[] {
  return starts.map((start) => DateTime.fromMillis(start, { zone }).toFormat('HH:mmZZ'));
}

/** Starts as full ISO local times with offset. */
export function iso(zone: string, starts: number[]): string[] {
  return starts.map((start) =>
    DateTime.fromMillis(start, { zone }).toFormat("yyyy-MM-dd'T'HH:mmZZ"),
  );
}

/** The slots of one date whose hours are given as an override (weekly hours empty). */
export function slotsOn(
  zone: string,
  date: string,
  intervals: Interval[],
  rule: Partial<SlotRules> = {},
): number[] {
  return freeStarts(calendar(zone, {}, { [date]: intervals }), rules(rule), around(date), LONG_AGO);
}

export function expectDistinctAndIncreasing(starts: number[]): void {
  for (let i = 1; i < starts.length; i++) expect(starts[i]).toBeGreaterThan(starts[i - 1]);
}
