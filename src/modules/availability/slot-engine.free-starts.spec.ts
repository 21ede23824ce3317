import { MINUTE } from '../../common/time/durations';
import type { DateOverrides, Interval, WeeklyHours } from '../catalog/working-hours';
import { type CalendarSchedule, type SlotRules, freeStarts } from './slot-engine';
import {
  LONG_AGO,
  MONDAY,
  NY,
  around,
  at,
  calendar,
  hhmm,
  iso,
  local,
  rules,
  slotsOn,
} from './slot-engine.fixtures';
import type { Span } from './working-time';

/*
 * Hand-worked cases of the slot engine (freeStarts on plain days, with padding, busy time, date
 * overrides and a period ending at 24:00); how they are written: slot-engine.fixtures.ts.
 */

describe('freeStarts: plain days', () => {
  const mondays = (intervals: Interval[]) => calendar(NY, { monday: intervals });
  const onMonday = (cal: CalendarSchedule, rule: Partial<SlotRules> = {}) =>
    hhmm(NY, freeStarts(cal, rules(rule), around(MONDAY), LONG_AGO));

  it('9-12, 30-min duration on a 30-min grid: six starts, the last ending at 12:00', () => {
    expect(onMonday(mondays([at('09:00', '12:00')]))).toEqual([
      '09:00',
      '09:30',
      '10:00',
      '10:30',
      '11:00',
      '11:30',
    ]);
  });

  it('gives real instants of the calendar zone', () => {
    const starts = freeStarts(mondays([at('09:00', '10:00')]), rules(), around(MONDAY), LONG_AGO);
    expect(starts).toEqual([Date.UTC(2026, 5, 15, 13, 0), Date.UTC(2026, 5, 15, 13, 30)]);
  });

  it('an interval smaller than the duration gives overlapping candidates', () => {
    expect(onMonday(mondays([at('09:00', '12:00')]), { duration: 60, slotInterval: 15 })).toEqual([
      '09:00',
      '09:15',
      '09:30',
      '09:45',
      '10:00',
      '10:15',
      '10:30',
      '10:45',
      '11:00',
    ]);
  });

  it('an interval larger than the duration leaves gaps between starts', () => {
    expect(onMonday(mondays([at('09:00', '12:00')]), { duration: 30, slotInterval: 45 })).toEqual([
      '09:00',
      '09:45',
      '10:30',
      '11:15',
    ]);
  });

  it('a duration that does not fit the rest of the day is not offered at its end', () => {
    // 9:00-11:00 with 50 minutes on a 30-minute grid: 10:00 ends 10:50, 10:30 would end 11:20.
    expect(onMonday(mondays([at('09:00', '11:00')]), { duration: 50 })).toEqual([
      '09:00',
      '09:30',
      '10:00',
    ]);
  });

  it('two intervals (a lunch break): no slot across the break, the grid restarts at 13:15', () => {
    const cal = mondays([at('09:00', '12:00'), at('13:15', '15:00')]);
    expect(onMonday(cal, { duration: 60, slotInterval: 30 })).toEqual([
      '09:00',
      '09:30',
      '10:00',
      '10:30',
      '11:00',
      '13:15',
      '13:45',
    ]);
  });

  it('touching intervals are one working span: one grid, slots across the seam', () => {
    const cal = mondays([at('09:00', '10:00'), at('10:00', '11:00')]);
    expect(onMonday(cal, { duration: 45, slotInterval: 20 })).toEqual([
      '09:00',
      '09:20',
      '09:40',
      '10:00',
    ]);
  });

  it('a closed weekday has no slots; other weekdays are untouched', () => {
    const cal = calendar(NY, { tuesday: [at('09:00', '10:00')] });
    expect(freeStarts(cal, rules(), around(MONDAY), LONG_AGO).map((s) => iso(NY, [s])[0])).toEqual([
      '2026-06-16T09:00-04:00',
      '2026-06-16T09:30-04:00',
    ]);
  });
});

describe('freeStarts: padding at the edges of working time', () => {
  const cal = calendar(NY, { monday: [at('09:00', '12:00')] });
  const onMonday = (rule: Partial<SlotRules>) =>
    hhmm(NY, freeStarts(cal, rules(rule), around(MONDAY), LONG_AGO));

  it('10 minutes before: 9:00 is not offered when work starts at 9:00 (grid stays on :00/:30)', () => {
    expect(onMonday({ paddingBefore: 10 })).toEqual(['09:30', '10:00', '10:30', '11:00', '11:30']);
  });

  it('10 minutes after: 11:30 is not offered when work ends at 12:00', () => {
    expect(onMonday({ paddingAfter: 10 })).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00']);
  });

  it('padding that exactly fills the edge is allowed', () => {
    // 15-min slots with 15 before and 15 after on a 15-min grid: 9:15 uses 9:00-9:45, 11:30 uses
    // 11:15-12:00.
    expect(
      onMonday({ duration: 15, slotInterval: 15, paddingBefore: 15, paddingAfter: 15 }),
    ).toEqual([
      '09:15',
      '09:30',
      '09:45',
      '10:00',
      '10:15',
      '10:30',
      '10:45',
      '11:00',
      '11:15',
      '11:30',
    ]);
  });

  it('padding reaching across a lunch break is not allowed either', () => {
    const split = calendar(NY, { monday: [at('09:00', '10:00'), at('10:30', '12:00')] });
    const starts = freeStarts(
      split,
      rules({ paddingBefore: 10, paddingAfter: 10 }),
      around(MONDAY),
      LONG_AGO,
    );
    // 9:00 (before 9:00), 9:30 (after to 10:10), 10:30 (before from 10:20), 11:30 (after to 12:10).
    expect(hhmm(NY, starts)).toEqual(['11:00']);
  });
});

describe('freeStarts: busy time', () => {
  const cal = (busy: Span[]) => calendar(NY, { monday: [at('09:00', '12:00')] }, {}, busy);
  const span = (from: string, until: string): Span => ({
    from: local(NY, `${MONDAY}T${from}`),
    until: local(NY, `${MONDAY}T${until}`),
  });
  const onMonday = (busy: Span[], rule: Partial<SlotRules> = {}) =>
    hhmm(NY, freeStarts(cal(busy), rules(rule), around(MONDAY), LONG_AGO));

  it('an appointment with its own 15-min padding takes 9:45-10:45', () => {
    // The appointment is 10:00-10:30; the busy span carries its padding.
    expect(onMonday([span('09:45', '10:45')])).toEqual(['09:00', '11:00', '11:30']);
  });

  it('busy spans are half-open: our padded span may touch them on either side', () => {
    // 9:00 + 30 + 15 after ends 9:45 (touches the appointment); 11:00 - 15 before is 10:45.
    expect(onMonday([span('09:45', '10:45')], { paddingBefore: 15, paddingAfter: 15 })).toEqual([
      '11:00',
    ]);
    // Without padding before, 9:00 fits: it ends exactly at 9:45.
    expect(onMonday([span('09:45', '10:45')], { paddingAfter: 15 })).toEqual(['09:00', '11:00']);
  });

  it('our own padding may not overlap busy time', () => {
    // 10:45 with 10 min before would start at 10:35, inside the appointment's padded span.
    // 9:15 with 10 min before uses 9:05-9:45 and just touches it.
    expect(onMonday([span('09:45', '10:45')], { paddingBefore: 10, slotInterval: 15 })).toEqual([
      '09:15',
      '11:00',
      '11:15',
      '11:30',
    ]);
  });

  it('a short block removes every slot it touches', () => {
    expect(onMonday([span('10:15', '10:20')])).toEqual([
      '09:00',
      '09:30',
      '10:30',
      '11:00',
      '11:30',
    ]);
  });

  it('a one-millisecond block still counts', () => {
    const block = local(NY, `${MONDAY}T10:29:59.999`);
    expect(onMonday([{ from: block, until: block + 1 }])).toEqual([
      '09:00',
      '09:30',
      '10:30',
      '11:00',
      '11:30',
    ]);
  });

  it('overlapping busy spans in any order', () => {
    const busy = [span('10:45', '11:05'), span('09:40', '10:10'), span('10:00', '10:50')];
    expect(onMonday(busy)).toEqual(['09:00', '11:30']);
    expect(onMonday([...busy].reverse(), { slotInterval: 5 })).toEqual([
      '09:00',
      '09:05',
      '09:10',
      '11:05',
      '11:10',
      '11:15',
      '11:20',
      '11:25',
      '11:30',
    ]);
  });

  it('busy time on another day or outside working hours changes nothing', () => {
    expect(
      onMonday([
        span('06:00', '09:00'),
        span('12:00', '18:00'),
        { from: local(NY, '2026-06-16T09:00'), until: local(NY, '2026-06-16T12:00') },
      ]),
    ).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00', '11:30']);
  });

  it('does not change the busy spans it is given', () => {
    const busy = [span('10:00', '11:00'), span('10:30', '11:30')];
    const copy = busy.map((b) => ({ ...b }));
    onMonday(busy);
    expect(busy).toEqual(copy);
  });
});

describe('freeStarts: date overrides', () => {
  const weekly: WeeklyHours = { monday: [at('09:00', '10:00')], tuesday: [at('09:00', '10:00')] };
  const week = (overrides: DateOverrides) =>
    iso(NY, freeStarts(calendar(NY, weekly, overrides), rules(), around(MONDAY), LONG_AGO));

  it('no override: Monday and Tuesday by the weekly hours', () => {
    expect(week({})).toEqual([
      '2026-06-15T09:00-04:00',
      '2026-06-15T09:30-04:00',
      '2026-06-16T09:00-04:00',
      '2026-06-16T09:30-04:00',
    ]);
  });

  it('an empty override closes that date only', () => {
    expect(week({ '2026-06-15': [] })).toEqual([
      '2026-06-16T09:00-04:00',
      '2026-06-16T09:30-04:00',
    ]);
  });

  it('an override replaces the weekly hours of that date', () => {
    expect(week({ '2026-06-15': [at('14:00', '15:00')] })).toEqual([
      '2026-06-15T14:00-04:00',
      '2026-06-15T14:30-04:00',
      '2026-06-16T09:00-04:00',
      '2026-06-16T09:30-04:00',
    ]);
  });

  it('an override opens a date the weekly hours keep closed', () => {
    expect(week({ '2026-06-17': [at('06:00', '06:30')] })).toEqual([
      '2026-06-15T09:00-04:00',
      '2026-06-15T09:30-04:00',
      '2026-06-16T09:00-04:00',
      '2026-06-16T09:30-04:00',
      '2026-06-17T06:00-04:00',
    ]);
  });

  it('an override of another date (or another year) changes nothing', () => {
    expect(week({ '2027-06-15': [], '2026-06-22': [] })).toEqual(week({}));
  });
});

describe('freeStarts: a working period ending at 24:00', () => {
  it('the last slot ends exactly at midnight', () => {
    expect(hhmm(NY, slotsOn(NY, MONDAY, [at('22:00', '24:00')], { duration: 60 }))).toEqual([
      '22:00',
      '22:30',
      '23:00',
    ]);
  });

  it('24:00 is the next day midnight, in real time', () => {
    const [last] = slotsOn(NY, MONDAY, [at('23:30', '24:00')]);
    expect(last + 30 * MINUTE).toBe(local(NY, '2026-06-16T00:00'));
  });

  it('a slot does not run on into the next date, even when it is worked from 00:00', () => {
    // Each date's hours are their own working span: 23:30 + 60 min would need Tuesday's 00:00-00:30.
    const cal = calendar(
      NY,
      {},
      { [MONDAY]: [at('22:00', '24:00')], '2026-06-16': [at('00:00', '02:00')] },
    );
    expect(iso(NY, freeStarts(cal, rules({ duration: 60 }), around(MONDAY), LONG_AGO))).toEqual([
      '2026-06-15T22:00-04:00',
      '2026-06-15T22:30-04:00',
      '2026-06-15T23:00-04:00',
      '2026-06-16T00:00-04:00',
      '2026-06-16T00:30-04:00',
      '2026-06-16T01:00-04:00',
    ]);
  });

  it('00:00-24:00 on a 6-hour grid', () => {
    expect(
      hhmm(NY, slotsOn(NY, MONDAY, [at('00:00', '24:00')], { duration: 360, slotInterval: 360 })),
    ).toEqual(['00:00', '06:00', '12:00', '18:00']);
  });
});
