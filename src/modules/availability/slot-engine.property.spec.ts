import fc from 'fast-check';
import { DateTime } from 'luxon';
import {
  DAY_NAMES,
  type DateOverrides,
  type Interval,
  type WeeklyHours,
  parseDateOverrides,
  parseWeeklyHours,
  workingIntervalsOn,
} from '../catalog/working-hours';
import { type CalendarSchedule, type SlotRules, checkStart, freeStarts } from './slot-engine';
import { type Span, ZoneClock, localDateOf, startOfLocalDate, workingSpans } from './working-time';
import { formatApiDatetime } from '../../common/time/datetimes';

/*
 * Properties of the slot engine over random calendars, rules and dates (concentrated around each
 * zone's DST changes in 2026-2027). The expectations come from an oracle that shares no code with the
 * engine beyond `workingIntervalsOn` (which intervals a date has): the zone's offsets are read from
 * `Intl.DateTimeFormat` (not luxon), and a date's working time is found minute by minute (every
 * real-time minute whose wall-clock time is in one of the date's intervals). The zones here change
 * offset on whole minutes and at most once an hour, so a span of working time is exactly a run of
 * such minutes.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The zones of the issue, and America/Havana: its fall-back (01:00 -> 00:00) repeats midnight, so its
 * date starts at the first of two midnights.
 */
const ZONES = [
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

function utcMidnight(date: string): number {
  const [year, month, day] = date.split('-').map(Number);
  return Date.UTC(year, month - 1, day);
}

function addDays(date: string, days: number): string {
  return new Date(utcMidnight(date) + days * DAY).toISOString().slice(0, 10);
}

function oracleDateOf(zone: string, instant: number): string {
  return new Date(wallOf(zone, instant)).toISOString().slice(0, 10);
}

/** Every instant of a local date lies within this much of its UTC midnight (offsets are -12..+14). */
const REACH = { before: 15 * HOUR, after: DAY + 13 * HOUR };

/** The first instant (to the minute) whose local date is `date`. */
function oracleStartOfDate(zone: string, date: string): number {
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
function intervalMinutes(hours: WeeklyHours, overrides: DateOverrides, date: string) {
  return workingIntervalsOn(hours, overrides, date).map((i) => [
    minutesOf(i.start),
    minutesOf(i.end),
  ]);
}

/** Working time of a local date, minute by minute: maximal runs of worked real-time minutes. */
function oracleSpans(zone: string, hours: WeeklyHours, overrides: DateOverrides, date: string) {
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
function wallTimeIn(intervals: number[][], zone: string, date: string, instant: number): boolean {
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

const TRANSITIONS = new Map(ZONES.map((zone) => [zone, transitionDates(zone)]));

// ---------------------------------------------------------------------------------------------
// Arbitraries.

const FIVE = 5;
const DAY_STEPS = (24 * 60) / FIVE; // 288

function clock(steps: number): string {
  const minutes = steps * FIVE;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** 0-3 sorted, non-overlapping intervals (touching allowed) on 5-minute steps, up to 24:00. */
const intervalsArb: fc.Arbitrary<Interval[]> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<Interval[]>([]) },
  {
    weight: 8,
    arbitrary: fc
      .array(
        fc.record({
          // Often 0: intervals from 00:00 (where Santiago and Havana change) and touching ones.
          gap: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 96 })),
          length: fc.integer({ min: 1, max: 160 }),
        }),
        { minLength: 1, maxLength: 3, size: 'max' },
      )
      .map((pieces) => {
        const intervals: Interval[] = [];
        let cursor = 0;
        for (const { gap, length } of pieces) {
          const start = cursor + gap;
          if (start >= DAY_STEPS) break;
          const end = Math.min(start + length, DAY_STEPS);
          intervals.push({ start: clock(start), end: clock(end) });
          cursor = end;
        }
        return intervals;
      }),
  },
  { weight: 1, arbitrary: fc.constant<Interval[]>([{ start: '00:00', end: '24:00' }]) },
);

const hoursArb: fc.Arbitrary<WeeklyHours> = fc
  .array(fc.option(intervalsArb, { nil: undefined, freq: 8 }), { minLength: 7, maxLength: 7 })
  .map((days) => {
    const hours: WeeklyHours = {};
    days.forEach((intervals, index) => {
      if (intervals !== undefined) hours[DAY_NAMES[index]] = intervals;
    });
    return hours;
  });

function overridesArb(date: string): fc.Arbitrary<DateOverrides> {
  return fc
    .array(
      fc.record({
        day: fc.integer({ min: -1, max: 4 }),
        intervals: fc.oneof(
          { weight: 1, arbitrary: fc.constant<Interval[]>([]) },
          { weight: 2, arbitrary: intervalsArb },
        ),
      }),
      { maxLength: 3 },
    )
    .map((entries) => {
      const overrides: DateOverrides = {};
      for (const { day, intervals } of entries) overrides[addDays(date, day)] = intervals;
      return overrides;
    });
}

const FIRST_DATE = '2026-01-01';
const anyDateArb = fc.integer({ min: 0, max: 729 }).map((days) => addDays(FIRST_DATE, days));

function dateArb(zone: string): fc.Arbitrary<string> {
  const transitions = TRANSITIONS.get(zone as (typeof ZONES)[number]) ?? [];
  if (transitions.length === 0) return anyDateArb;
  const near = fc
    .tuple(
      fc.constantFrom(...transitions),
      fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, fc.integer({ min: -2, max: 1 })),
    )
    .map(([date, days]) => addDays(date, days));
  return fc.oneof({ weight: 4, arbitrary: near }, { weight: 1, arbitrary: anyDateArb });
}

/** An offset in milliseconds, mostly on the 5-minute grid (to hit edges exactly), sometimes not. */
function offsetArb(min: number, max: number): fc.Arbitrary<number> {
  const step = FIVE * MINUTE;
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .integer({ min: Math.ceil(min / step), max: Math.floor(max / step) })
        .map((n) => n * step),
    },
    { weight: 1, arbitrary: fc.integer({ min, max }) },
  );
}

interface Scenario {
  zone: string;
  date: string;
  calendar: CalendarSchedule;
  rules: SlotRules;
  window: Span;
  now: number;
  /** Fractions of the window, for instants to ask `checkStart` about. */
  probes: number[];
}

const scenarioArb: fc.Arbitrary<Scenario> = fc
  .constantFrom(...ZONES)
  .chain((zone) => dateArb(zone).map((date) => ({ zone, date })))
  .chain(({ zone, date }) => {
    const dayStart = oracleStartOfDate(zone, date);
    return fc
      .record({
        hours: hoursArb,
        overrides: overridesArb(date),
        busy: fc.array(
          fc.record({
            from: offsetArb(-DAY, 4 * DAY),
            length: offsetArb(1, 6 * HOUR).map((length) => Math.max(1, length)),
          }),
          { maxLength: 6 },
        ),
        // Mostly from before the date's early hours, where the DST changes are.
        windowFrom: offsetArb(-30 * HOUR, 4 * HOUR),
        windowLength: fc.oneof(
          { weight: 4, arbitrary: offsetArb(6 * HOUR, 3 * DAY) },
          { weight: 1, arbitrary: offsetArb(1, 6 * HOUR).map((length) => Math.max(1, length)) },
        ),
        now: offsetArb(-2 * DAY, 6 * HOUR),
        duration: fc.integer({ min: 5, max: 240 }),
        slotInterval: fc.integer({ min: 5, max: 120 }),
        paddingBefore: fc.integer({ min: 0, max: 60 }),
        paddingAfter: fc.integer({ min: 0, max: 60 }),
        // Often no bound at all in the window, sometimes one cutting through it.
        minHoursInAdvance: fc.oneof(
          { weight: 2, arbitrary: fc.constant(0) },
          { weight: 1, arbitrary: fc.integer({ min: 0, max: 72 }) },
        ),
        maxDaysInAdvance: fc.oneof(
          { weight: 2, arbitrary: fc.constant(365) },
          { weight: 1, arbitrary: fc.integer({ min: 0, max: 6 }) },
        ),
        probes: fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), {
          maxLength: 8,
        }),
      })
      .map((r): Scenario => {
        const window = {
          from: dayStart + r.windowFrom,
          until: dayStart + r.windowFrom + r.windowLength,
        };
        return {
          zone,
          date,
          calendar: {
            zone,
            hours: r.hours,
            overrides: r.overrides,
            busy: r.busy.map((b) => ({
              from: dayStart + b.from,
              until: dayStart + b.from + b.length,
            })),
          },
          rules: {
            duration: r.duration,
            slotInterval: r.slotInterval,
            paddingBefore: r.paddingBefore,
            paddingAfter: r.paddingAfter,
            minHoursInAdvance: r.minHoursInAdvance,
            maxDaysInAdvance: r.maxDaysInAdvance,
          },
          window,
          now: window.from + r.now,
          probes: r.probes,
        };
      });
  });

// ---------------------------------------------------------------------------------------------
// The expected answer, from the oracle.

interface Analysis {
  starts: number[];
  /** Computed independently of the engine. */
  expected: number[];
  /** Every grid point of every (oracle) working span that lies inside the window. */
  gridPoints: number[];
  earliest: number;
  latest: number;
}

function analyse(s: Scenario): Analysis {
  const { calendar, rules, window, now } = s;
  const earliest = now + rules.minHoursInAdvance * HOUR;
  const latest = now + rules.maxDaysInAdvance * DAY;
  const step = rules.slotInterval * MINUTE;
  const before = rules.paddingBefore * MINUTE;
  const after = (rules.duration + rules.paddingAfter) * MINUTE;
  const expected: number[] = [];
  const gridPoints: number[] = [];
  const lastDate = oracleDateOf(s.zone, window.until - 1);
  for (let date = oracleDateOf(s.zone, window.from); date <= lastDate; date = addDays(date, 1)) {
    for (const span of oracleSpans(s.zone, calendar.hours, calendar.overrides, date)) {
      for (let start = span.from; start < span.until; start += step) {
        if (start < window.from || start >= window.until) continue;
        gridPoints.push(start);
        const fits = start - before >= span.from && start + after <= span.until;
        const inAdvance = start >= earliest && start <= latest;
        const clear = calendar.busy.every(
          (b) => b.until <= start - before || b.from >= start + after,
        );
        if (fits && inAdvance && clear) expected.push(start);
      }
    }
  }
  return {
    starts: freeStarts(calendar, rules, window, now),
    expected,
    gridPoints,
    earliest,
    latest,
  };
}

/** Up to `count` elements spread evenly over `items`. */
function spread<T>(items: T[], count: number): T[] {
  if (items.length <= count) return items;
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)]);
}

/** Runs per property; `SLOT_PROPERTY_RUNS=5000` for a long hunt. */
const RUNS = Number(process.env.SLOT_PROPERTY_RUNS ?? 120);

// ---------------------------------------------------------------------------------------------

describe('the oracle', () => {
  it('knows the DST changes of 2026-2027', () => {
    expect(TRANSITIONS.get('America/New_York')).toEqual([
      '2026-03-08',
      '2026-11-01',
      '2027-03-14',
      '2027-11-07',
    ]);
    // A spring-forward at midnight: the change falls between two dates, both listed.
    expect(TRANSITIONS.get('America/Santiago')).toEqual([
      '2026-04-04',
      '2026-09-05',
      '2026-09-06',
      '2027-04-03',
      '2027-09-04',
      '2027-09-05',
    ]);
    expect(TRANSITIONS.get('Australia/Lord_Howe')).toEqual([
      '2026-04-05',
      '2026-10-04',
      '2027-04-04',
      '2027-10-03',
    ]);
    expect(TRANSITIONS.get('UTC')).toEqual([]);
    expect(TRANSITIONS.get('Asia/Kathmandu')).toEqual([]);
    expect(oracleStartOfDate('America/Santiago', '2026-09-06')).toBe(Date.UTC(2026, 8, 6, 4));
  });
});

describe('working-time (property)', () => {
  const dayArb = fc
    .constantFrom(...ZONES)
    .chain((zone) => fc.record({ zone: fc.constant(zone), date: dateArb(zone) }));

  it('startOfLocalDate is the first instant of the local date; localDateOf agrees with Intl', () => {
    fc.assert(
      fc.property(dayArb, fc.integer({ min: -2 * DAY, max: 2 * DAY }), ({ zone, date }, shift) => {
        const start = startOfLocalDate(zone, date);
        expect(start).toBe(oracleStartOfDate(zone, date));
        expect(localDateOf(zone, start)).toBe(date);
        expect(localDateOf(zone, start - 1)).toBe(oracleDateOf(zone, start - 1));
        expect(localDateOf(zone, start + shift)).toBe(oracleDateOf(zone, start + shift));
      }),
      { numRuns: 300 },
    );
  });

  it('a ZoneClock over a month formats and dates every instant as luxon does', () => {
    fc.assert(
      fc.property(dayArb, fc.integer({ min: 0, max: 31 * DAY }), ({ zone, date }, shift) => {
        const from = startOfLocalDate(zone, date) - 2 * DAY;
        const clock = new ZoneClock(zone, from, from + 31 * DAY);
        const instant = from + shift;
        const moment = DateTime.fromMillis(instant, { zone });
        expect(clock.format(instant)).toBe(formatApiDatetime(moment));
        expect(clock.localDate(instant)).toBe(moment.toISODate());
      }),
      { numRuns: 500 },
    );
  });

  it('workingSpans is exactly the real time whose wall-clock time is in the intervals', () => {
    fc.assert(
      fc.property(
        dayArb.chain(({ zone, date }) =>
          fc.record({
            zone: fc.constant(zone),
            date: fc.constant(date),
            hours: hoursArb,
            overrides: overridesArb(date),
            samples: fc.array(fc.integer({ min: -REACH.before, max: REACH.after }), {
              maxLength: 40,
            }),
          }),
        ),
        ({ zone, date, hours, overrides, samples }) => {
          // What the generators make is what the API accepts.
          expect(parseWeeklyHours(hours)).toEqual(hours);
          expect(parseDateOverrides(overrides)).toEqual(overrides);
          const spans = workingSpans(zone, hours, overrides, date);
          expect(spans).toEqual(oracleSpans(zone, hours, overrides, date));
          // And at instants to the millisecond, across the date and beyond it.
          const midnight = utcMidnight(date);
          const intervals = intervalMinutes(hours, overrides, date);
          for (const sample of samples) {
            const instant = midnight + sample;
            const inSpan = spans.some((span) => span.from <= instant && instant < span.until);
            const worked =
              oracleDateOf(zone, instant) === date && wallTimeIn(intervals, zone, date, instant);
            expect([instant, inSpan]).toEqual([instant, worked]);
          }
          // Total: the wall minutes of the intervals, less those in a gap, plus those repeated.
          const total = spans.reduce((sum, span) => sum + span.until - span.from, 0);
          let minutes = 0;
          for (let t = oracleStartOfDate(zone, date); oracleDateOf(zone, t) === date; t += MINUTE) {
            if (wallTimeIn(intervals, zone, date, t)) minutes++;
          }
          expect(total).toBe(minutes * MINUTE);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('freeStarts (property)', () => {
  it('offers only real local times whose padded span is in the working intervals of their date', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const { starts } = analyse(s);
        const { hours, overrides } = s.calendar;
        const before = s.rules.paddingBefore * MINUTE;
        const after = (s.rules.duration + s.rules.paddingAfter) * MINUTE;
        for (const start of starts) {
          // Written in the zone and read back: the same instant, or the other one of a repeated time.
          const shown = DateTime.fromMillis(start, { zone: s.zone });
          const wall = shown.toFormat("yyyy-MM-dd'T'HH:mm:ss.SSS");
          const read = DateTime.fromISO(wall, { zone: s.zone });
          if (read.toMillis() !== start) {
            expect(read.toFormat("yyyy-MM-dd'T'HH:mm:ss.SSS")).toBe(wall);
            expect(Math.abs(read.toMillis() - start)).toBe(
              Math.abs(read.offset - shown.offset) * MINUTE,
            );
            expect(read.offset).not.toBe(shown.offset);
          }
          const date = oracleDateOf(s.zone, start);
          expect(shown.toISODate()).toBe(date);
          const intervals = intervalMinutes(hours, overrides, date);
          for (const instant of [start, start - before, start + after - 1]) {
            expect([start, instant, oracleDateOf(s.zone, instant)]).toEqual([start, instant, date]);
            expect([start, instant, wallTimeIn(intervals, s.zone, date, instant)]).toEqual([
              start,
              instant,
              true,
            ]);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('offers starts on the grid of one working span, the padded span inside it and clear of busy time', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const { starts } = analyse(s);
        const before = s.rules.paddingBefore * MINUTE;
        const after = (s.rules.duration + s.rules.paddingAfter) * MINUTE;
        for (const start of starts) {
          const spans = workingSpans(
            s.zone,
            s.calendar.hours,
            s.calendar.overrides,
            localDateOf(s.zone, start),
          );
          const span = spans.find((w) => w.from <= start - before && start + after <= w.until);
          expect([start, span !== undefined]).toEqual([start, true]);
          expect((start - span!.from) % (s.rules.slotInterval * MINUTE)).toBe(0);
          for (const busy of s.calendar.busy) {
            expect([
              start,
              busy,
              busy.until <= start - before || busy.from >= start + after,
            ]).toEqual([start, busy, true]);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('offers each start once, in order, inside the window and the advance window', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const { starts, earliest, latest } = analyse(s);
        starts.forEach((start, i) => {
          if (i > 0) expect(start).toBeGreaterThan(starts[i - 1]);
          expect(start).toBeGreaterThanOrEqual(s.window.from);
          expect(start).toBeLessThan(s.window.until);
          expect(start).toBeGreaterThanOrEqual(earliest);
          expect(start).toBeLessThanOrEqual(latest);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('offers every grid point that satisfies the rules (the whole independent answer)', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const { starts, expected } = analyse(s);
        expect(starts).toEqual(expected);
      }),
      { numRuns: RUNS },
    );
  });

  it('checkStart accepts exactly the offered starts, with the reasons in order', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const { starts, expected, gridPoints, earliest, latest } = analyse(s);
        const offered = new Set(expected);
        const reason = (start: number) =>
          start < earliest
            ? 'not_available_min_hours_in_advance'
            : start > latest
              ? 'not_available_max_days_in_advance'
              : offered.has(start)
                ? null
                : 'not_available';
        const check = (start: number) => checkStart(s.calendar, s.rules, start, s.now);
        for (const start of spread(starts, 6)) expect([start, check(start)]).toEqual([start, null]);
        const refused = gridPoints.filter((start) => !offered.has(start));
        for (const start of spread(refused, 8)) {
          expect([start, check(start)]).toEqual([start, reason(start)]);
          expect(reason(start)).not.toBeNull();
        }
        const length = s.window.until - s.window.from;
        for (const probe of s.probes) {
          const start = s.window.from + Math.floor(probe * length);
          expect([start, check(start)]).toEqual([start, reason(start)]);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
