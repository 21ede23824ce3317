import fc from 'fast-check';
import { DateTime } from 'luxon';
import { MINUTE } from '../../common/time/durations';
import { checkStart, freeStarts } from './slot-engine';
import { RUNS, analyse, scenarioArb, spread } from './slot-scenarios.fixtures';
import { localDateOf, workingSpans } from './working-time';
import { intervalMinutes, oracleDateOf, wallTimeIn } from './zone-oracle.fixtures';

/*
 * Properties of the slot engine (freeStarts, checkStart), over random calendars, rules and dates
 * (concentrated around each zone's DST changes in 2026-2027): the expectations come from the oracle
 * of zone-oracle.fixtures.ts.
 */

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

  it('with firstOfEachDay, offers the first of the starts of each local date, and no other', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const { expected } = analyse(s);
        const firsts = expected.filter(
          (start, i) =>
            i === 0 || oracleDateOf(s.zone, expected[i - 1]) !== oracleDateOf(s.zone, start),
        );
        expect(freeStarts(s.calendar, s.rules, s.window, s.now, true)).toEqual(firsts);
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
