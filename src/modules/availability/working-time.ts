import { IANAZone } from 'luxon';
import { utcMidnightOf } from '../../common/time/calendar-dates';
import { DAY, HOUR, MINUTE } from '../../common/time/durations';
import { offsetOf } from '../../common/time/zones';
import {
  type DateOverrides,
  type Interval,
  type WeeklyHours,
  workingIntervalsOn,
} from '../catalog';
import { BoundedMap } from '../../common/cache/bounded-map';

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
 * A zone's offsets over a stretch of time, read once (asking the zone costs an `Intl` formatting):
 * local dates and a date's first instant then come by arithmetic. Offsets are read at every day
 * boundary and a change is bisected to the millisecond: any changes a day apart or more are seen.
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

  localDate(instant: number): string {
    return this.dateOfDay(this.dayOf(instant));
  }

  /** The local day number (days since 1970-01-01) of an instant. */
  dayOf(instant: number): number {
    return Math.floor((instant + this.offsetAt(instant) * MINUTE) / DAY);
  }

  /**
   * The instant as the API writes it in this zone, `2026-03-03T14:30:00-0500`: by arithmetic on the
   * local time (the date kept per day, the offset's text per offset), as every time listed is.
   */
  format(instant: number): string {
    const offset = this.offsetAt(instant);
    const local = instant + offset * MINUTE;
    const day = Math.floor(local / DAY);
    const ms = local - day * DAY;
    return `${this.dateOfDay(day)}T${twoDigits(Math.floor(ms / HOUR))}:${twoDigits(Math.floor((ms % HOUR) / MINUTE))}:${twoDigits(Math.floor((ms % MINUTE) / 1000))}${offsetText(offset)}`;
  }

  /** `YYYY-MM-DD` of a local day number (days since 1970-01-01), kept. */
  dateOfDay(day: number): string {
    return kept(this.dates, day, () => isoDate(new Date(day * DAY)));
  }

  /** A local date's first instant: its (first) midnight, or the end of a DST gap swallowing it. */
  startOfDate(date: string): number {
    return this.startOfDay(utcMidnightOf(date) / DAY);
  }

  /** startOfDate of a local day number (days since 1970-01-01). */
  startOfDay(day: number): number {
    const utcMidnight = day * DAY;
    let first = Number.POSITIVE_INFINITY;
    for (const segment of this.segments) {
      const midnight = utcMidnight - segment.offset * MINUTE;
      if (midnight >= segment.from && midnight < segment.until && midnight < first)
        first = midnight;
    }
    if (first !== Number.POSITIVE_INFINITY) return first;
    const afterGap = this.segments.find((s) => this.dayOf(s.from) === day);
    if (afterGap) return afterGap.from;
    throw new Error(`${this.dateOfDay(day)} is outside this clock of ${this.zone}`);
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

/** The stretch of time a kept clock covers: two of these, from a multiple of it. */
const CLOCK_STRETCH = 64 * DAY;
/** Bounded: of zones, and of stretches per zone. */
const MAX_CLOCKS = 1_000;
/** By zone, then by stretch number (no key string built per request). */
const clocks = new BoundedMap<string, Map<number, ZoneClock>>(MAX_CLOCKS);

/**
 * A clock of `zone` covering `[from, until)`: one kept per zone and 64-day stretch (covering two),
 * so the zone is read once per stretch, not by every request. It answers as a clock made for
 * `[from, until)` would (the same offsets, over more time); a longer span gets its own clock.
 */
export function zoneClock(zone: string, from: number, until: number): ZoneClock {
  const stretch = Math.floor(from / CLOCK_STRETCH);
  if (!Number.isFinite(stretch) || !(until <= (stretch + 2) * CLOCK_STRETCH))
    return new ZoneClock(zone, from, until);
  const ofZone = kept(clocks, zone, () => new BoundedMap<number, ZoneClock>(MAX_CLOCKS));
  const made = () => new ZoneClock(zone, stretch * CLOCK_STRETCH, (stretch + 2) * CLOCK_STRETCH);
  return kept(ofZone, stretch, made);
}

/** `map`'s value of `key`, made (and kept) on first use. */
export function kept<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}

/** The first instant of a local date in `zone` (see ZoneClock.startOfDate). */
export function startOfLocalDate(zone: string, date: string): number {
  const midnight = utcMidnightOf(date);
  return zoneClock(zone, midnight - DAY, midnight + DAY).startOfDate(date);
}

/** The date after a `YYYY-MM-DD`. */
export function nextDate(date: string): string {
  return isoDate(new Date(utcMidnightOf(date) + DAY));
}

export function localDateOf(zone: string, instant: number): string {
  return zoneClock(zone, instant, instant + 1).localDate(instant);
}

/**
 * The real time a calendar works on a local date (its weekly hours or override), on the zone's
 * offsets, not wall-clock arithmetic: a spring-forward gap is skipped, a fall-back hour worked once
 * per occurrence. Sorted, disjoint, merged where they touch. `clock` (of `zone`) saves a zone read.
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
  const zoneClk = clock ?? zoneClock(zone, utcMidnight - DAY, utcMidnight + 2 * DAY);
  return spansOfDay(zoneClk, intervals, utcMidnight / DAY);
}

/** Working `intervals` of a local day number (days since 1970-01-01) as real time on `clock`. */
export function spansOfDay(clock: ZoneClock, intervals: readonly Interval[], day: number): Span[] {
  if (intervals.length === 0) return [];
  const utcMidnight = day * DAY;
  const dayStart = clock.startOfDay(day);
  const dayEnd = clock.startOfDay(day + 1);
  const spans: Span[] = [];
  for (const segment of clock.segmentsWithin(dayStart, dayEnd)) {
    // Within a segment the offset is constant, so wall-clock minutes are a straight line of time.
    const localMidnight = utcMidnight - segment.offset * MINUTE;
    for (const { start, end } of intervals) {
      const from = Math.max(segment.from, localMidnight + minutesOf(start) * MINUTE);
      const until = Math.min(segment.until, localMidnight + minutesOf(end) * MINUTE);
      if (from < until) spans.push({ from, until });
    }
  }
  return spans.length > 1 ? mergeSpans(spans) : spans;
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

function twoDigits(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

const offsetTexts = new Map<number, string>();

/** `-0500`, `+0530` for an offset in minutes east of UTC (kept: zones have few). */
function offsetText(offset: number): string {
  let text = offsetTexts.get(offset);
  if (text === undefined) {
    const abs = Math.abs(offset);
    const hh = String(Math.floor(abs / 60)).padStart(2, '0');
    const mm = String(abs % 60).padStart(2, '0');
    text = `${offset < 0 ? '-' : '+'}${hh}${mm}`;
    if (offsetTexts.size < 1_000) offsetTexts.set(offset, text);
  }
  return text;
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
