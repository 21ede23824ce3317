import fc from 'fast-check';
import { DAY, HOUR, MINUTE } from '../../common/time/durations';
import {
  DAY_NAMES,
  type DateOverrides,
  type Interval,
  type WeeklyHours,
} from '../catalog/working-hours';
import { type CalendarSchedule, type SlotRules, freeStarts } from './slot-engine';
import type { Span } from './working-time';
import {
  TRANSITIONS,
  ZONES,
  addDays,
  oracleDateOf,
  oracleSpans,
  oracleStartOfDate,
} from './zone-oracle.fixtures';

/*
 * Random calendars, rules and dates for the slot engine's properties (concentrated around each
 * zone's DST changes in 2026-2027), and the answer the oracle expects for each.
 */

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

export const hoursArb: fc.Arbitrary<WeeklyHours> = fc
  .array(fc.option(intervalsArb, { nil: undefined, freq: 8 }), { minLength: 7, maxLength: 7 })
  .map((days) => {
    const hours: WeeklyHours = {};
    days.forEach((intervals, index) => {
      if (intervals !== undefined) hours[DAY_NAMES[index]] = intervals;
    });
    return hours;
  });

export function overridesArb(date: string): fc.Arbitrary<DateOverrides> {
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

export function dateArb(zone: string): fc.Arbitrary<string> {
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

export const scenarioArb: fc.Arbitrary<Scenario> = fc
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

interface Analysis {
  starts: number[];
  /** Computed independently of the engine. */
  expected: number[];
  /** Every grid point of every (oracle) working span that lies inside the window. */
  gridPoints: number[];
  earliest: number;
  latest: number;
}

export function analyse(s: Scenario): Analysis {
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
export function spread<T>(items: T[], count: number): T[] {
  if (items.length <= count) return items;
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)]);
}

/** Runs per property; `SLOT_PROPERTY_RUNS=5000` for a long hunt. */
export const RUNS = Number(process.env.SLOT_PROPERTY_RUNS ?? 120);
