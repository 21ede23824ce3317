import { IANAZone } from 'luxon';
import { utcMidnightOf } from '../../common/time/calendar-dates';
import { DAY, MINUTE } from '../../common/time/durations';
import { offsetOf } from '../../common/time/zones';
import { type DateOverrides, type WeeklyHours, workingIntervalsOn } from '../catalog';

/** A half-open span of real time, in epoch milliseconds: `[from, until)`. */
export interface Span {
  from: number;
  until: number;
}

interface OffsetSegment extends Span {
  /** Minutes east of UTC. */
  offset: number;
}

/**
 * A zone's offsets over a stretch of time, read once: local dates and the first instant of a date
 * then come by arithmetic. (Asking the zone costs an `Intl` formatting each time: done per start, it
 * was most of what `/availability/dates` spent.) Offsets are read at every day boundary and a change
 * is found by bisection to the millisecond, so any number of changes at least a day apart is seen.
 */
export class ZoneClock {
  private readonly segments: OffsetSegment[];
  /** `YYYY-MM-DD` by local day number (days since 1970-01-01). */
  private readonly dates = new Map<number, string>();

  constructor(
    readonly zone: string,
    from: number,
    until: number,
  ) {
    if (!Number.isFinite(from) || !Number.isFinite(until))
      throw new RangeError(`No clock of ${zone} from ${from} to ${until}`);
    // Two days of margin: the dates around the stretch are looked up too.
    this.segments = offsetSegments(IANAZone.create(zone), from - 2 * DAY, until + 2 * DAY);
  }

  /** Minutes east of UTC at `instant`. */
  offsetAt(instant: number): number {
    const segments = this.segments;
    if (instant < segments[0].from || instant >= segments[segments.length - 1].until)
      return offsetOf(IANAZone.create(this.zone), instant);
    let low = 0;
    let high = segments.length - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (segments[mid].until <= instant) low = mid + 1;
      else high = mid;
    }
    return segments[low].offset;
  }

  /** The local date (`YYYY-MM-DD`) of an instant. */
  localDate(instant: number): string {
    const day = Math.floor((instant + this.offsetAt(instant) * MINUTE) / DAY);
    let date = this.dates.get(day);
    if (date === undefined) {
      date = isoDate(new Date(day * DAY));
      this.dates.set(day, date);
    }
    return date;
  }

  /** The instant as the API writes it in this zone: `2026-03-03T14:30:00-0500`. */
  format(instant: number): string {
    const offset = this.offsetAt(instant);
    const local = new Date(instant + offset * MINUTE).toISOString();
    const sign = offset < 0 ? '-' : '+';
    const abs = Math.abs(offset);
    const hh = String(Math.floor(abs / 60)).padStart(2, '0');
    const mm = String(abs % 60).padStart(2, '0');
    return `${local.slice(0, 19)}${sign}${hh}${mm}`;
  }

  /**
   * The first instant of a local date: its midnight (the first one when a fall-back repeats it), or
   * the end of the DST gap that swallows it.
   */
  startOfDate(date: string): number {
    const utcMidnight = utcMidnightOf(date);
    let first = Number.POSITIVE_INFINITY;
    for (const segment of this.segments) {
      const midnight = utcMidnight - segment.offset * MINUTE;
      if (midnight >= segment.from && midnight < segment.until && midnight < first)
        first = midnight;
    }
    if (first !== Number.POSITIVE_INFINITY) return first;
    const afterGap = this.segments.find((s) => this.localDate(s.from) === date);
    if (afterGap) return afterGap.from;
    throw new Error(`${date} is outside this clock of ${this.zone}`);
  }

  /** The segments of constant offset inside `[from, until)`, clipped to it. */
  segmentsWithin(from: number, until: number): OffsetSegment[] {
    return this.segments
      .filter((s) => s.until > from && s.from < until)
      .map((s) => ({
        from: Math.max(s.from, from),
        until: Math.min(s.until, until),
        offset: s.offset,
      }));
  }
}

/** The first instant of a local date in `zone` (see ZoneClock.startOfDate). */
export function startOfLocalDate(zone: string, date: string): number {
  const midnight = utcMidnightOf(date);
  return new ZoneClock(zone, midnight - DAY, midnight + DAY).startOfDate(date);
}

/** `YYYY-MM-DD` of the day after `date`. */
export function nextDate(date: string): string {
  return isoDate(new Date(utcMidnightOf(date) + DAY));
}

/** The local date (`YYYY-MM-DD`) of an instant in `zone`. */
export function localDateOf(zone: string, instant: number): string {
  return new ZoneClock(zone, instant, instant + 1).localDate(instant);
}

/**
 * The real time a calendar works on a local date: every instant whose wall-clock time in `zone` falls
 * inside one of that date's intervals (weekly hours, or the date's override). Computed on the zone's
 * offsets, not on wall-clock arithmetic, so a DST change inside working hours is exact: a spring-forward
 * gap is skipped (03:00 follows 01:59), a fall-back hour is worked once per occurrence it falls in.
 * Spans are sorted, disjoint, and merged where they touch. `clock` (of `zone`, covering the date)
 * saves reading the zone again when many dates are asked.
 */
export function workingSpans(
  zone: string,
  hours: WeeklyHours,
  overrides: DateOverrides,
  date: string,
  clock?: ZoneClock,
): Span[] {
  const intervals = workingIntervalsOn(hours, overrides, date);
  if (intervals.length === 0) return [];
  const utcMidnight = utcMidnightOf(date);
  const zoneClock = clock ?? new ZoneClock(zone, utcMidnight - DAY, utcMidnight + 2 * DAY);
  const dayStart = zoneClock.startOfDate(date);
  const dayEnd = zoneClock.startOfDate(nextDate(date));
  const spans: Span[] = [];
  for (const segment of zoneClock.segmentsWithin(dayStart, dayEnd)) {
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
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

function isoDate(utc: Date): string {
  return utc.toISOString().slice(0, 10);
}

/** `[from, until)` cut where the zone's offset changes. */
function offsetSegments(zone: IANAZone, from: number, until: number): OffsetSegment[] {
  const segments: OffsetSegment[] = [];
  let start = from;
  let offset = offsetOf(zone, from);
  for (let probe = Math.min(from + DAY, until); ; probe = Math.min(probe + DAY, until)) {
    const last = probe === until;
    const probeOffset = offsetOf(zone, last ? until - 1 : probe);
    if (probeOffset !== offset) {
      // The change lies in (probe - 1 day, probe]: bisect to the first instant of the new offset.
      let low = Math.max(start, probe - DAY);
      let high = last ? until - 1 : probe;
      while (high - low > 1) {
        const mid = Math.floor((low + high) / 2);
        if (offsetOf(zone, mid) === offset) low = mid;
        else high = mid;
      }
      segments.push({ from: start, until: high, offset });
      start = high;
      offset = offsetOf(zone, high);
    }
    if (last) break;
  }
  segments.push({ from: start, until, offset });
  return segments;
}
