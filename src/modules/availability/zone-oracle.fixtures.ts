import { DAY, HOUR, MINUTE } from '../../common/time/durations';
import { type DateOverrides, type WeeklyHours, workingIntervalsOn } from '../catalog/working-hours';
import type { Span } from './working-time';

/*
 * The oracle of the slot engine's properties (slot-engine.property.spec.ts,
 * working-time.property.spec.ts): it shares no code with the engine beyond `workingIntervalsOn`
 * (which intervals a date has). The zone's offsets are read from `Intl.DateTimeFormat` (not luxon),
 * and a date's working time is found minute by minute (every real-time minute whose wall-clock time
 * is in one of the date's intervals). The zones here change offset on whole minutes and at most once
 * an hour, so a span of working time is exactly a run of such minutes.
 */

/**
 * The zones of the issue, and America/Havana: its fall-back (01:00 -> 00:00) repeats midnight, so its
 * date starts at the first of two midnights.
 */
export const ZONES = [
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'America/Santiago',
  'UTC',
  'America/Havana',
] as const;

// ---------------------------------------------------------------------------------------------
// The oracle: offsets from Intl, dates and wall-clock times from offsets.

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, number>();

/** Minutes east of UTC of `zone` at `instant`, from Intl. */
function exactOffset(zone: string, instant: number): number {
  const key = `${zone}|${instant}`;
  const known = offsets.get(key);
  if (known !== undefined) return known;
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  const part: Record<string, number> = {};
  for (const { type, value } of format.formatToParts(instant)) part[type] = Number(value);
  const wall = Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second);
  const offset = Math.round((wall - (instant - (instant % 1000))) / MINUTE);
  offsets.set(key, offset);
  return offset;
}

/** The offset at any instant: read at whole hours, and minute by minute in an hour it changes in. */
function offsetAt(zone: string, instant: number): number {
  const hour = Math.floor(instant / HOUR) * HOUR;
  const offset = exactOffset(zone, hour);
  if (exactOffset(zone, hour + HOUR) === offset) return offset;
  return exactOffset(zone, Math.floor(instant / MINUTE) * MINUTE);
}

/** Wall-clock time of an instant, as milliseconds of a UTC clock showing it. */
function wallOf(zone: string, instant: number): number {
  return instant + offsetAt(zone, instant) * MINUTE;
}

export function utcMidnight(date: string): number {
  const [year, month, day] = date.split('-').map(Number);
  return Date.UTC(year, month - 1, day);
}

export function addDays(date: string, days: number): string {
  return new Date(utcMidnight(date) + days * DAY).toISOString().slice(0, 10);
}

export function oracleDateOf(zone: string, instant: number): string {
  return new Date(wallOf(zone, instant)).toISOString().slice(0, 10);
}

/** Every instant of a local date lies within this much of its UTC midnight (offsets are -12..+14). */
export const REACH = { before: 15 * HOUR, after: DAY + 13 * HOUR };

/** The first instant (to the minute) whose local date is `date`. */
export function oracleStartOfDate(zone: string, date: string): number {
  const midnight = utcMidnight(date);
  let t = midnight - REACH.before;
  while (wallOf(zone, t + HOUR) < midnight) t += HOUR;
  while (wallOf(zone, t) < midnight) t += MINUTE;
  return t;
}

function minutesOf(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return hours * 60 + minutes;
}

/** The date's intervals as `[start, end)` minutes of the day. */
export function intervalMinutes(hours: WeeklyHours, overrides: DateOverrides, date: string) {
  return workingIntervalsOn(hours, overrides, date).map((i) => [
    minutesOf(i.start),
    minutesOf(i.end),
  ]);
}

/** Working time of a local date, minute by minute: maximal runs of worked real-time minutes. */
export function oracleSpans(
  zone: string,
  hours: WeeklyHours,
  overrides: DateOverrides,
  date: string,
) {
  const intervals = intervalMinutes(hours, overrides, date);
  const spans: Span[] = [];
  if (intervals.length === 0) return spans;
  const midnight = utcMidnight(date);
  for (let t = midnight - REACH.before; t < midnight + REACH.after; t += MINUTE) {
    const minute = (wallOf(zone, t) - midnight) / MINUTE;
    if (minute < 0 || minute >= 24 * 60) continue;
    if (!intervals.some(([start, end]) => start <= minute && minute < end)) continue;
    const last = spans[spans.length - 1];
    if (last && last.until === t) last.until = t + MINUTE;
    else spans.push({ from: t, until: t + MINUTE });
  }
  return spans;
}

/** Whether the wall-clock time of `instant` lies in one of `intervals` (minutes) of local date `date`. */
export function wallTimeIn(
  intervals: number[][],
  zone: string,
  date: string,
  instant: number,
): boolean {
  const minute = (wallOf(zone, instant) - utcMidnight(date)) / MINUTE; // fractional
  return intervals.some(([start, end]) => start <= minute && minute < end);
}

/** Local dates of each zone on which (or at whose end) its offset changes, 2026-2027. */
function transitionDates(zone: string): string[] {
  const dates = new Set<string>();
  for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2028, 0, 1); t += DAY) {
    if (exactOffset(zone, t) === exactOffset(zone, t + DAY)) continue;
    let low = t; // offset as at t
    let high = t + DAY; // offset changed
    while (high - low > MINUTE) {
      const mid = low + Math.floor((high - low) / 2 / MINUTE) * MINUTE;
      if (exactOffset(zone, mid) === exactOffset(zone, t)) low = mid;
      else high = mid;
    }
    dates.add(oracleDateOf(zone, high - 1));
    dates.add(oracleDateOf(zone, high));
  }
  return [...dates].sort();
}

export const TRANSITIONS = new Map(ZONES.map((zone) => [zone, transitionDates(zone)]));
