import fc from 'fast-check';
import { DAY, HOUR } from '../../common/time/durations';
import { commonStartsOf } from './slot-engine';
import { RUNS, analyse, hoursArb, overridesArb, scenarioArb } from './slot-scenarios.fixtures';

/*
 * A collective type's availability (docs/team-scheduling.md) is the intersection of its calendars'
 * free starts: checked against the independent oracle of slot-scenarios.fixtures.ts (analyse) over
 * random schedules, several calendars of one zone sharing the rules, the window and the clock.
 */

/** A scenario and 1 to 3 more calendars: the same hours or others, their own busy time. */
const teamArb = scenarioArb.chain((s) =>
  fc
    .array(
      fc.record({
        hours: fc.oneof(fc.constant(s.calendar.hours), hoursArb),
        overrides: fc.oneof(fc.constant(s.calendar.overrides), overridesArb(s.date)),
        busy: fc.array(
          fc.record({
            from: fc.integer({ min: s.window.from - DAY, max: s.window.until }),
            length: fc.integer({ min: 1, max: 6 * HOUR }),
          }),
          { maxLength: 5 },
        ),
        // Booking limits, as a calendar's own filter: leaves out the starts of some hours.
        limitedHours: fc.array(fc.integer({ min: 0, max: 23 }), { maxLength: 4 }),
      }),
      { minLength: 1, maxLength: 3 },
    )
    .map((others) => ({
      first: s,
      others: others.map((o) => ({
        scenario: {
          ...s,
          calendar: {
            zone: s.zone,
            hours: o.hours,
            overrides: o.overrides,
            busy: o.busy.map((b) => ({ from: b.from, until: b.from + b.length })),
          },
        },
        fits: (start: number) => !o.limitedHours.includes(Math.floor(start / HOUR) % 24),
      })),
    })),
);

describe('commonStartsOf: a collective type’s starts (model over random schedules)', () => {
  it('gives exactly the starts every calendar can take, each within its own limits', () => {
    let nonEmpty = 0;
    fc.assert(
      fc.property(teamArb, ({ first, others }) => {
        const model = others.reduce((common, o) => {
          const own = new Set(analyse(o.scenario).expected.filter(o.fits));
          return common.filter((start) => own.has(start));
        }, analyse(first).expected);
        const calendars = [
          { schedule: first.calendar },
          ...others.map((o) => ({ schedule: o.scenario.calendar, fits: o.fits })),
        ];
        const starts = commonStartsOf(calendars, first.rules, first.window, first.now);
        expect(starts).toEqual(model);
        if (starts.length > 0) nonEmpty++;
      }),
      { numRuns: RUNS },
    );
    // The schedules overlap often enough for the property to say something.
    expect(nonEmpty).toBeGreaterThan(RUNS / 10);
  });

  it('is one calendar’s own starts for a team of one, and none for no calendar', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        expect(commonStartsOf([{ schedule: s.calendar }], s.rules, s.window, s.now)).toEqual(
          analyse(s).expected,
        );
      }),
      { numRuns: RUNS },
    );
    expect(
      commonStartsOf(
        [],
        {
          duration: 30,
          slotInterval: 30,
          paddingBefore: 0,
          paddingAfter: 0,
          minHoursInAdvance: 0,
          maxDaysInAdvance: 30,
        },
        { from: 0, until: DAY },
        0,
      ),
    ).toEqual([]);
  });
});
