import { DateTime, IANAZone } from 'luxon';
import { type DateOverrides, type WeeklyHours, workingIntervalsOn } from '../catalog/working-hours';

/** A half-open span of real time, in epoch milliseconds: `[from, until)`. */
export interface Span {
  from: number;
  until: number;
}

const MINUTE = 60_000;

/** The first instant of a local date (its midnight, or the end of a DST gap that swallows it). */
export function startOfLocalDate(zone: string, date: string): number {
  const start = DateTime.fromISO(date, { zone }).startOf('day').toMillis();
  // A midnight that happens twice (a fall-back from 01:00 to 00:00, as America/Havana has) is
  // resolved by luxon to its second occurrence; the date began at the first, read with the offset
  // in force just before.
  const iana = IANAZone.create(zone);
  const offsetBefore = iana.offset(start - 1);
  const [year, month, day] = date.split('-').map(Number);
  const first = Date.UTC(year, month - 1, day) - offsetBefore * MINUTE;
  return first < start && iana.offset(first) === offsetBefore ? first : start;
}

/** `YYYY-MM-DD` of the day after `date`. */
export function nextDate(date: string): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).plus({ days: 1 }).toISODate()!;
}

/** The local date (`YYYY-MM-DD`) of an instant in `zone`. */
export function localDateOf(zone: string, instant: number): string {
  return DateTime.fromMillis(instant, { zone }).toISODate()!;
}

/**
 * The real time a calendar works on a local date: every instant whose wall-clock time in `zone` falls
 * inside one of that date's intervals (weekly hours, or the date's override). Computed on the zone's
 * offsets, not on wall-clock arithmetic, so a DST change inside working hours is exact: a spring-forward
 * gap is skipped (03:00 follows 01:59), a fall-back hour is worked once per occurrence it falls in.
 * Spans are sorted, disjoint, and merged where they touch.
 */
export function workingSpans(
  zone: string,
  hours: WeeklyHours,
  overrides: DateOverrides,
  date: string,
): Span[] {
  const intervals = workingIntervalsOn(hours, overrides, date);
  if (intervals.length === 0) return [];
  const dayStart = startOfLocalDate(zone, date);
  const dayEnd = startOfLocalDate(zone, nextDate(date));
  const [year, month, day] = date.split('-').map(Number);
  const utcMidnight = Date.UTC(year, month - 1, day);
  const spans: Span[] = [];
  for (const segment of offsetSegments(zone, dayStart, dayEnd)) {
    // Within a segment the offset is constant, so wall-clock minutes are a straight line of time.
    const localMidnight = utcMidnight - segment.offset * MINUTE;
    for (const { start, end } of intervals) {
      const from = Math.max(segment.from, localMidnight + minutesOf(start) * MINUTE);
      const until = Math.min(segment.until, localMidnight + minutesOf(end) * MINUTE);
      if (from < until) spans.push({ from, until });
    }
  }
  return mergeSpans(spans);
}

/** Sorts spans and merges those that overlap or touch. */
export function mergeSpans(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.from - b.from);
  const merged: Span[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    if (last && span.from <= last.until) last.until = Math.max(last.until, span.until);
    else merged.push({ ...span });
  }
  return merged;
}

function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number);
  return h * 60 + m;
}

interface OffsetSegment extends Span {
  /** Minutes east of UTC. */
  offset: number;
}

/** `[from, until)` cut where the zone's offset changes (found by bisection, to the millisecond). */
function offsetSegments(zoneName: string, from: number, until: number): OffsetSegment[] {
  const zone = IANAZone.create(zoneName);
  const segments: OffsetSegment[] = [];
  let start = from;
  while (start < until) {
    const offset = zone.offset(start);
    if (zone.offset(until - 1) === offset) {
      segments.push({ from: start, until, offset });
      break;
    }
    let low = start; // offset(low) === offset
    let high = until - 1; // offset(high) !== offset
    while (high - low > 1) {
      const mid = Math.floor((low + high) / 2);
      if (zone.offset(mid) === offset) low = mid;
      else high = mid;
    }
    segments.push({ from: start, until: high, offset });
    start = high;
  }
  return segments;
}
