import fc from 'fast-check';
import { DateTime } from 'luxon';
import { formatApiDatetime } from '../../common/time/datetimes';
import { DAY, MINUTE } from '../../common/time/durations';
import { parseDateOverrides, parseWeeklyHours } from '../catalog/working-hours';
import { RUNS, dateArb, hoursArb, overridesArb } from './slot-scenarios.fixtures';
import { ZoneClock, localDateOf, startOfLocalDate, workingSpans } from './working-time';
import {
  REACH,
  TRANSITIONS,
  ZONES,
  intervalMinutes,
  oracleDateOf,
  oracleSpans,
  oracleStartOfDate,
  utcMidnight,
  wallTimeIn,
} from './zone-oracle.fixtures';

/*
 * Properties of a date's working time (startOfLocalDate, localDateOf, ZoneClock, workingSpans) and
 * of the oracle itself, over random calendars, rules and dates (concentrated around each zone's DST
 * changes in 2026-2027): the expectations come from the oracle of zone-oracle.fixtures.ts.
 */

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
