import { DateTime } from 'luxon';
import type { DateOverrides, Interval, WeeklyHours } from '../catalog/working-hours';
import {
  type CalendarSchedule,
  type SlotRules,
  advanceWindow,
  checkSession,
  checkStart,
  freeStarts,
} from './slot-engine';
import { type Span, localDateOf, startOfLocalDate, workingSpans } from './working-time';

/*
 * Hand-worked cases: every expectation is written out as local wall-clock times (with the offset where
 * a DST change makes it matter), worked out from the rules, not read back from the engine.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const NY = 'America/New_York';
/** A Monday in June: no DST change anywhere near it. */
const MONDAY = '2026-06-15';

const at = (start: string, end: string): Interval => ({ start, end });

function calendar(
  zone: string,
  hours: WeeklyHours,
  overrides: DateOverrides = {},
  busy: Span[] = [],
): CalendarSchedule {
  return { zone, hours, overrides, busy };
}

function rules(overrides: Partial<SlotRules> = {}): SlotRules {
  return {
    duration: 30,
    paddingBefore: 0,
    paddingAfter: 0,
    slotInterval: 30,
    minHoursInAdvance: 0,
    maxDaysInAdvance: 1000,
    ...overrides,
  };
}

/** Long before every date used here, so the advance window never cuts unless a test says so. */
const LONG_AGO = Date.UTC(2025, 0, 1);

/** An unambiguous local time (`2026-06-15T09:30`) as an instant. */
function local(zone: string, wall: string): number {
  const time = DateTime.fromISO(wall, { zone });
  if (!time.isValid) throw new Error(`bad local time ${wall}`);
  return time.toMillis();
}

/** A window of real time that surely holds all of `date` in any zone, and a day either side. */
function around(date: string): Span {
  const [year, month, day] = date.split('-').map(Number);
  const midnight = Date.UTC(year, month - 1, day);
  return { from: midnight - DAY - 14 * HOUR, until: midnight + 2 * DAY + 12 * HOUR };
}

/** Starts as `HH:mm` in the zone. */
function hhmm(zone: string, starts: number[]): string[] {
  return starts.map((start) => DateTime.fromMillis(start, { zone }).toFormat('HH:mm'));
}

/** Starts as `HH:mm±hh:mm` in the zone: the wall time and the offset it is read with. */
function withOffset(zone: string, starts: number[]): string[] {
  return starts.map((start) => DateTime.fromMillis(start, { zone }).toFormat('HH:mmZZ'));
}

/** Starts as full ISO local times with offset. */
function iso(zone: string, starts: number[]): string[] {
  return starts.map((start) =>
    DateTime.fromMillis(start, { zone }).toFormat("yyyy-MM-dd'T'HH:mmZZ"),
  );
}

/** The slots of one date whose hours are given as an override (weekly hours empty). */
function slotsOn(
  zone: string,
  date: string,
  intervals: Interval[],
  rule: Partial<SlotRules> = {},
): number[] {
  return freeStarts(calendar(zone, {}, { [date]: intervals }), rules(rule), around(date), LONG_AGO);
}

function expectDistinctAndIncreasing(starts: number[]): void {
  for (let i = 1; i < starts.length; i++) expect(starts[i]).toBeGreaterThan(starts[i - 1]);
}

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

describe('freeStarts: advance bounds', () => {
  const cal = calendar(NY, { monday: [at('09:00', '12:00')] });
  const starts = (rule: Partial<SlotRules>, now: number) =>
    hhmm(NY, freeStarts(cal, rules(rule), around(MONDAY), now));
  const all = ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30'];

  it('minHoursInAdvance: a start equal to now + min hours is allowed', () => {
    expect(starts({ minHoursInAdvance: 1 }, local(NY, `${MONDAY}T08:00`))).toEqual(all);
  });

  it('minHoursInAdvance: one millisecond earlier is not', () => {
    expect(starts({ minHoursInAdvance: 1 }, local(NY, `${MONDAY}T08:00:00.001`))).toEqual(
      all.slice(1),
    );
  });

  it('minHoursInAdvance cuts mid-slot: the next grid start, not a shifted grid', () => {
    expect(starts({ minHoursInAdvance: 2 }, local(NY, `${MONDAY}T08:10`))).toEqual([
      '10:30',
      '11:00',
      '11:30',
    ]);
  });

  it('minHoursInAdvance 0: a start at now is allowed, one in the past is not', () => {
    expect(starts({}, local(NY, `${MONDAY}T10:00`))).toEqual(['10:00', '10:30', '11:00', '11:30']);
  });

  it('maxDaysInAdvance: a start equal to now + max days is allowed', () => {
    expect(starts({ maxDaysInAdvance: 1 }, local(NY, '2026-06-14T11:00'))).toEqual(all.slice(0, 5));
  });

  it('maxDaysInAdvance: a start one millisecond after now + max days is not', () => {
    expect(starts({ maxDaysInAdvance: 1 }, local(NY, '2026-06-14T10:59:59.999'))).toEqual(
      all.slice(0, 4),
    );
  });

  it('maxDaysInAdvance counts days of 24 real hours', () => {
    // From Saturday 11:00 EDT, 2 days is Monday 11:00 EDT; no DST change in between.
    expect(starts({ maxDaysInAdvance: 2 }, local(NY, '2026-06-13T11:00'))).toEqual(all.slice(0, 5));
    expect(starts({ maxDaysInAdvance: 2 }, local(NY, '2026-06-13T10:00'))).toEqual(all.slice(0, 3));
  });

  it('maxDaysInAdvance 0 with minHoursInAdvance 0: only now itself', () => {
    expect(starts({ maxDaysInAdvance: 0 }, local(NY, `${MONDAY}T10:30`))).toEqual(['10:30']);
    expect(starts({ maxDaysInAdvance: 0 }, local(NY, `${MONDAY}T10:31`))).toEqual([]);
  });

  it('a min bound past the max bound leaves nothing', () => {
    expect(
      starts({ minHoursInAdvance: 48, maxDaysInAdvance: 1 }, local(NY, '2026-06-14T08:00')),
    ).toEqual([]);
  });

  it('advanceWindow is [now + min hours, now + max days]', () => {
    expect(advanceWindow({ minHoursInAdvance: 2, maxDaysInAdvance: 3 }, 1_000)).toEqual({
      earliest: 1_000 + 2 * HOUR,
      latest: 1_000 + 3 * DAY,
    });
  });
});

describe('freeStarts: the window', () => {
  const cal = calendar(NY, { monday: [at('09:00', '12:00')], tuesday: [at('09:00', '10:00')] });
  const within = (from: string, until: string) =>
    iso(NY, freeStarts(cal, rules(), { from: local(NY, from), until: local(NY, until) }, LONG_AGO));

  it('from is inclusive, until exclusive', () => {
    expect(within(`${MONDAY}T09:30`, `${MONDAY}T11:00`)).toEqual([
      '2026-06-15T09:30-04:00',
      '2026-06-15T10:00-04:00',
      '2026-06-15T10:30-04:00',
    ]);
  });

  it('a window starting mid-slot keeps the grid of the working span', () => {
    expect(within(`${MONDAY}T09:45`, `${MONDAY}T11:00`)).toEqual([
      '2026-06-15T10:00-04:00',
      '2026-06-15T10:30-04:00',
    ]);
  });

  it('a window ending inside a slot still offers that slot', () => {
    // Only the start has to be inside the window; the slot itself may run past it.
    expect(within(`${MONDAY}T11:00`, `${MONDAY}T11:31`)).toEqual([
      '2026-06-15T11:00-04:00',
      '2026-06-15T11:30-04:00',
    ]);
  });

  it('a window over several days, in order', () => {
    expect(within(`${MONDAY}T11:30`, '2026-06-16T09:30:00.001')).toEqual([
      '2026-06-15T11:30-04:00',
      '2026-06-16T09:00-04:00',
      '2026-06-16T09:30-04:00',
    ]);
  });

  it('an empty or reversed window has nothing', () => {
    expect(within(`${MONDAY}T10:00`, `${MONDAY}T10:00`)).toEqual([]);
    expect(within(`${MONDAY}T11:00`, `${MONDAY}T10:00`)).toEqual([]);
  });
});

describe('checkStart', () => {
  const busy: Span[] = [
    { from: local(NY, `${MONDAY}T10:00`), until: local(NY, `${MONDAY}T10:30`) },
  ];
  const cal = calendar(NY, { monday: [at('09:00', '12:00')] }, {}, busy);
  const rule = rules({ minHoursInAdvance: 1, maxDaysInAdvance: 1, paddingBefore: 5 });
  const now = local(NY, `${MONDAY}T08:30`);

  it('agrees with freeStarts every 5 minutes of the day and on off-grid instants', () => {
    const day = { from: local(NY, `${MONDAY}T00:00`), until: local(NY, '2026-06-16T00:00') };
    const free = new Set(freeStarts(cal, rule, day, now));
    // 9:30 (from now + 1h) uses 9:25-10:00 and touches the busy 10:00-10:30; 10:30 would use
    // 10:25-11:00, its padding inside it.
    expect(hhmm(NY, [...free])).toEqual(['09:30', '11:00', '11:30']);
    for (let start = day.from; start < day.until; start += 5 * MINUTE) {
      expect([start, checkStart(cal, rule, start, now) === null]).toEqual([start, free.has(start)]);
    }
    for (const start of [...free].flatMap((s) => [s + 1, s + 1000, s + MINUTE])) {
      expect(checkStart(cal, rule, start, now)).toBe('not_available');
    }
  });

  it('reasons in order: min hours, then max days, then not_available', () => {
    const reason = (wall: string, at = now) => checkStart(cal, rule, local(NY, wall), at);
    // Before now + 1h, even where nothing would be free anyway.
    expect(reason(`${MONDAY}T09:00`)).toBe('not_available_min_hours_in_advance');
    expect(reason(`${MONDAY}T03:17`)).toBe('not_available_min_hours_in_advance');
    expect(reason(`${MONDAY}T09:29:59.999`)).toBe('not_available_min_hours_in_advance');
    // At now + 1h exactly: the advance bound passes, then the slot itself is judged.
    expect(reason(`${MONDAY}T09:30`)).toBeNull();
    // After now + 1 day, even off the grid.
    expect(reason('2026-06-16T08:30:00.001')).toBe('not_available_max_days_in_advance');
    expect(reason('2026-06-22T10:30')).toBe('not_available_max_days_in_advance');
    // Inside the advance window: off the grid, busy, closed.
    expect(reason(`${MONDAY}T10:15`)).toBe('not_available');
    expect(reason(`${MONDAY}T10:00`)).toBe('not_available');
    expect(reason(`${MONDAY}T13:00`)).toBe('not_available');
    expect(reason('2026-06-16T08:30')).toBe('not_available');
    expect(reason(`${MONDAY}T10:30`)).toBe('not_available'); // its padding overlaps the busy span
    expect(reason(`${MONDAY}T11:00`)).toBeNull();
    // Both bounds broken at once (min past max): min hours is reported first.
    const inverted = rules({ minHoursInAdvance: 48, maxDaysInAdvance: 1 });
    expect(checkStart(cal, inverted, local(NY, '2026-06-16T12:00'), now)).toBe(
      'not_available_min_hours_in_advance',
    );
  });

  it('the max-days bound is inclusive', () => {
    const from = local(NY, '2026-06-14T11:00');
    const max = rules({ maxDaysInAdvance: 1 });
    expect(checkStart(cal, max, local(NY, `${MONDAY}T11:00`), from)).toBeNull();
    expect(checkStart(cal, max, local(NY, `${MONDAY}T11:00`), from - 1)).toBe(
      'not_available_max_days_in_advance',
    );
  });
});

describe('checkSession', () => {
  const start = local(NY, `${MONDAY}T18:00`);
  const rule = { minHoursInAdvance: 2, maxDaysInAdvance: 7 };
  const now = local(NY, `${MONDAY}T12:00`);

  it('a free seat: bookable', () => {
    expect(checkSession({ start, seats: 10, taken: 9 }, rule, now)).toBeNull();
    expect(checkSession({ start, seats: 1, taken: 0 }, rule, now)).toBeNull();
  });

  it('full (or over-full): not_available', () => {
    expect(checkSession({ start, seats: 10, taken: 10 }, rule, now)).toBe('not_available');
    expect(checkSession({ start, seats: 10, taken: 11 }, rule, now)).toBe('not_available');
    expect(checkSession({ start, seats: 0, taken: 0 }, rule, now)).toBe('not_available');
  });

  it('advance bounds, inclusive at both ends, checked before the seats', () => {
    const full = { start, seats: 3, taken: 3 };
    const free = { start, seats: 3, taken: 0 };
    expect(checkSession(free, rule, start - 2 * HOUR)).toBeNull();
    expect(checkSession(free, rule, start - 2 * HOUR + 1)).toBe(
      'not_available_min_hours_in_advance',
    );
    expect(checkSession(full, rule, start - HOUR)).toBe('not_available_min_hours_in_advance');
    expect(checkSession(free, rule, start - 7 * DAY)).toBeNull();
    expect(checkSession(free, rule, start - 7 * DAY - 1)).toBe('not_available_max_days_in_advance');
    expect(checkSession(full, rule, start - 8 * DAY)).toBe('not_available_max_days_in_advance');
    expect(checkSession(full, rule, now)).toBe('not_available');
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

describe('freeStarts across DST changes', () => {
  describe('America/New_York', () => {
    it('spring-forward day 2026-03-08, 00:00-04:00: no 02:xx, 03:00 follows 01:30', () => {
      const starts = slotsOn(NY, '2026-03-08', [at('00:00', '04:00')]);
      expect(withOffset(NY, starts)).toEqual([
        '00:00-05:00',
        '00:30-05:00',
        '01:00-05:00',
        '01:30-05:00',
        '03:00-04:00',
        '03:30-04:00',
      ]);
      // 01:30 EST to 03:00 EDT is 30 real minutes: the grid runs on in real time.
      expect(starts[4] - starts[3]).toBe(30 * MINUTE);
    });

    it('spring-forward: a slot may run across the gap (60 real minutes from 01:30 end at 03:30)', () => {
      const starts = slotsOn(NY, '2026-03-08', [at('00:00', '04:00')], { duration: 60 });
      expect(withOffset(NY, starts)).toEqual([
        '00:00-05:00',
        '00:30-05:00',
        '01:00-05:00',
        '01:30-05:00',
        '03:00-04:00',
      ]);
    });

    it('spring-forward: hours starting inside the gap start at 03:00; hours wholly in it are none', () => {
      expect(withOffset(NY, slotsOn(NY, '2026-03-08', [at('02:00', '04:00')]))).toEqual([
        '03:00-04:00',
        '03:30-04:00',
      ]);
      // 02:15-03:15 is 03:00-03:15 EDT: room for a 15-minute slot only.
      expect(
        withOffset(NY, slotsOn(NY, '2026-03-08', [at('02:15', '03:15')], { duration: 15 })),
      ).toEqual(['03:00-04:00']);
      expect(slotsOn(NY, '2026-03-08', [at('02:15', '03:15')])).toEqual([]);
      expect(slotsOn(NY, '2026-03-08', [at('02:00', '03:00')], { duration: 5 })).toEqual([]);
      expect(slotsOn(NY, '2026-03-08', [at('02:10', '02:50')], { duration: 5 })).toEqual([]);
    });

    it('fall-back day 2026-11-01, 00:00-03:00: 01:00 and 01:30 twice, distinct, none skipped', () => {
      const starts = slotsOn(NY, '2026-11-01', [at('00:00', '03:00')]);
      expect(withOffset(NY, starts)).toEqual([
        '00:00-04:00',
        '00:30-04:00',
        '01:00-04:00',
        '01:30-04:00',
        '01:00-05:00',
        '01:30-05:00',
        '02:00-05:00',
        '02:30-05:00',
      ]);
      expectDistinctAndIncreasing(starts);
      // Four real hours of work, every 30 minutes.
      for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBe(30 * MINUTE);
    });

    it('fall-back: hours lying only in the repeated hour are worked twice, each on its own grid', () => {
      const starts = slotsOn(NY, '2026-11-01', [at('01:10', '01:50')], { slotInterval: 20 });
      expect(withOffset(NY, starts)).toEqual(['01:10-04:00', '01:10-05:00']);
    });

    it('weekly hours on the DST Sundays, as a regular weekday', () => {
      const cal = calendar(NY, { sunday: [at('01:00', '03:00')] });
      const march = freeStarts(
        cal,
        rules({ duration: 60, slotInterval: 60 }),
        around('2026-03-08'),
        LONG_AGO,
      );
      expect(iso(NY, march)).toEqual(['2026-03-08T01:00-05:00']);
      const november = freeStarts(
        cal,
        rules({ duration: 60, slotInterval: 60 }),
        around('2026-11-01'),
        LONG_AGO,
      );
      expect(iso(NY, november)).toEqual([
        '2026-11-01T01:00-04:00',
        '2026-11-01T01:00-05:00',
        '2026-11-01T02:00-05:00',
      ]);
    });

    it('maxDaysInAdvance counts 24 real hours across a DST change', () => {
      // From Saturday 09:00 EST, one day later is Sunday 10:00 EDT (the day has 23 hours).
      const cal = calendar(NY, { sunday: [at('09:00', '12:00')] });
      const starts = freeStarts(
        cal,
        rules({ maxDaysInAdvance: 1, slotInterval: 60 }),
        around('2026-03-08'),
        local(NY, '2026-03-07T09:00'),
      );
      expect(hhmm(NY, starts)).toEqual(['09:00', '10:00']);
    });
  });

  describe('Europe/London', () => {
    const LONDON = 'Europe/London';

    it('spring-forward 2026-03-29 (01:00 GMT -> 02:00 BST), 00:00-03:00 hourly', () => {
      const starts = slotsOn(LONDON, '2026-03-29', [at('00:00', '03:00')], {
        duration: 60,
        slotInterval: 60,
      });
      expect(withOffset(LONDON, starts)).toEqual(['00:00+00:00', '02:00+01:00']);
    });

    it('fall-back 2026-10-25 (02:00 BST -> 01:00 GMT), 00:00-03:00 hourly: 01:00 twice', () => {
      const starts = slotsOn(LONDON, '2026-10-25', [at('00:00', '03:00')], {
        duration: 60,
        slotInterval: 60,
      });
      expect(withOffset(LONDON, starts)).toEqual([
        '00:00+01:00',
        '01:00+01:00',
        '01:00+00:00',
        '02:00+00:00',
      ]);
    });
  });

  describe('Australia/Lord_Howe (30-minute DST)', () => {
    const LORD_HOWE = 'Australia/Lord_Howe';

    it('2026-10-04: 02:00 +10:30 jumps to 02:30 +11:00', () => {
      expect(
        withOffset(LORD_HOWE, slotsOn(LORD_HOWE, '2026-10-04', [at('01:00', '04:00')])),
      ).toEqual(['01:00+10:30', '01:30+10:30', '02:30+11:00', '03:00+11:00', '03:30+11:00']);
    });

    it('2026-10-04, 20-minute grid: steps in real time across the half-hour gap', () => {
      const starts = slotsOn(LORD_HOWE, '2026-10-04', [at('01:00', '03:20')], {
        duration: 20,
        slotInterval: 20,
      });
      expect(withOffset(LORD_HOWE, starts)).toEqual([
        '01:00+10:30',
        '01:20+10:30',
        '01:40+10:30',
        '02:30+11:00', // 01:40 + 20 real minutes is 02:00 +10:30, which is 02:30 +11:00
        '02:50+11:00', // 02:50 + 20 would end 03:10, but 03:10 + 20 would pass 03:20
      ]);
    });

    it('2026-04-05: 02:00 +11:00 falls back to 01:30 +10:30; 01:30-02:00 worked twice', () => {
      expect(
        withOffset(LORD_HOWE, slotsOn(LORD_HOWE, '2026-04-05', [at('01:00', '03:00')])),
      ).toEqual(['01:00+11:00', '01:30+11:00', '01:30+10:30', '02:00+10:30', '02:30+10:30']);
    });
  });

  describe('Asia/Kathmandu (+05:45, no DST)', () => {
    const KATHMANDU = 'Asia/Kathmandu';

    it('hours on the local clock, instants 5:45 before them in UTC', () => {
      const starts = slotsOn(KATHMANDU, MONDAY, [at('09:00', '12:00')], {
        duration: 60,
        slotInterval: 60,
      });
      expect(withOffset(KATHMANDU, starts)).toEqual(['09:00+05:45', '10:00+05:45', '11:00+05:45']);
      expect(starts[0]).toBe(Date.UTC(2026, 5, 15, 3, 15));
    });

    it('the whole day on a 45-minute grid: 32 slots, from local midnight', () => {
      const starts = slotsOn(KATHMANDU, MONDAY, [at('00:00', '24:00')], {
        duration: 45,
        slotInterval: 45,
      });
      expect(starts).toHaveLength(32);
      expect(starts[0]).toBe(Date.UTC(2026, 5, 14, 18, 15));
      expect(hhmm(KATHMANDU, starts.slice(-2))).toEqual(['22:30', '23:15']);
    });
  });

  describe('America/Santiago (DST changes at midnight)', () => {
    const SANTIAGO = 'America/Santiago';

    it('2026-09-06 has no midnight: the date starts at 01:00 -03:00', () => {
      expect(startOfLocalDate(SANTIAGO, '2026-09-06')).toBe(Date.UTC(2026, 8, 6, 4, 0));
      expect(withOffset(SANTIAGO, slotsOn(SANTIAGO, '2026-09-06', [at('00:00', '03:00')]))).toEqual(
        ['01:00-03:00', '01:30-03:00', '02:00-03:00', '02:30-03:00'],
      );
    });

    it('the day before runs to the gap: its 24:00 is 01:00 -03:00 of 2026-09-06', () => {
      const starts = slotsOn(SANTIAGO, '2026-09-05', [at('22:00', '24:00')], { duration: 60 });
      expect(iso(SANTIAGO, starts)).toEqual([
        '2026-09-05T22:00-04:00',
        '2026-09-05T22:30-04:00',
        '2026-09-05T23:00-04:00',
      ]);
    });

    it('hours wholly inside the missing midnight hour give nothing', () => {
      expect(slotsOn(SANTIAGO, '2026-09-06', [at('00:00', '01:00')], { duration: 5 })).toEqual([]);
    });

    it('fall-back 2026-04-05: 23:00-24:00 of 2026-04-04 is worked twice', () => {
      const starts = slotsOn(SANTIAGO, '2026-04-04', [at('22:00', '24:00')]);
      expect(withOffset(SANTIAGO, starts)).toEqual([
        '22:00-03:00',
        '22:30-03:00',
        '23:00-03:00',
        '23:30-03:00',
        '23:00-04:00',
        '23:30-04:00',
      ]);
      expectDistinctAndIncreasing(starts);
    });

    it('2026-04-05 itself starts at its one midnight, -04:00', () => {
      expect(
        iso(SANTIAGO, slotsOn(SANTIAGO, '2026-04-05', [at('00:00', '01:00')], { duration: 30 })),
      ).toEqual(['2026-04-05T00:00-04:00', '2026-04-05T00:30-04:00']);
    });

    it('a calendar open every day around the fall-back: each date its own, none twice', () => {
      const every = { saturday: [at('00:00', '24:00')], sunday: [at('00:00', '24:00')] };
      const starts = freeStarts(
        calendar(SANTIAGO, every),
        rules({ duration: 60, slotInterval: 60 }),
        around('2026-04-04'),
        LONG_AGO,
      );
      // Saturday has 25 real hours, Sunday 24.
      expect(starts.filter((s) => localDateOf(SANTIAGO, s) === '2026-04-04')).toHaveLength(25);
      expect(starts.filter((s) => localDateOf(SANTIAGO, s) === '2026-04-05')).toHaveLength(24);
      expectDistinctAndIncreasing(starts);
    });
  });
});

describe('America/Havana: a fall-back that repeats midnight (01:00 -04:00 -> 00:00 -05:00)', () => {
  // Found by the working-time property: luxon resolves the twice-happening midnight of 2026-11-01
  // to its second occurrence, so the date used to start an hour late and 00:00-00:59 -04:00 (local
  // date 2026-11-01) was worked by no date at all.
  const HAVANA = 'America/Havana';

  it('the date starts at its first midnight', () => {
    expect(startOfLocalDate(HAVANA, '2026-11-01')).toBe(Date.UTC(2026, 10, 1, 4));
    expect(localDateOf(HAVANA, Date.UTC(2026, 10, 1, 4) - 1)).toBe('2026-10-31');
    expect(localDateOf(HAVANA, Date.UTC(2026, 10, 1, 4))).toBe('2026-11-01');
  });

  it('00:00-02:00 is three real hours: 00:00 is offered twice', () => {
    const starts = slotsOn(HAVANA, '2026-11-01', [at('00:00', '02:00')], {
      duration: 60,
      slotInterval: 60,
    });
    expect(iso(HAVANA, starts)).toEqual([
      '2026-11-01T00:00-04:00',
      '2026-11-01T00:00-05:00',
      '2026-11-01T01:00-05:00',
    ]);
  });

  it('the day before still ends at the first midnight', () => {
    const starts = slotsOn(HAVANA, '2026-10-31', [at('22:00', '24:00')], {
      duration: 60,
      slotInterval: 60,
    });
    expect(iso(HAVANA, starts)).toEqual(['2026-10-31T22:00-04:00', '2026-10-31T23:00-04:00']);
    expect(starts[1] + HOUR).toBe(Date.UTC(2026, 10, 1, 4));
  });

  it('its spring-forward swallows midnight (2026-03-08 starts at 01:00 -04:00)', () => {
    expect(startOfLocalDate(HAVANA, '2026-03-08')).toBe(Date.UTC(2026, 2, 8, 5));
    expect(
      withOffset(
        HAVANA,
        slotsOn(HAVANA, '2026-03-08', [at('00:00', '02:00')], { slotInterval: 60 }),
      ),
    ).toEqual(['01:00-04:00']);
  });
});

describe('workingSpans', () => {
  it('is the real time of the hours, merged where they touch', () => {
    const spans = workingSpans(
      NY,
      { monday: [at('09:00', '10:00'), at('10:00', '11:00'), at('13:00', '14:00')] },
      {},
      MONDAY,
    );
    expect(spans).toEqual([
      { from: Date.UTC(2026, 5, 15, 13), until: Date.UTC(2026, 5, 15, 15) },
      { from: Date.UTC(2026, 5, 15, 17), until: Date.UTC(2026, 5, 15, 18) },
    ]);
  });

  it('a fall-back day of 00:00-24:00 is 25 hours, a spring-forward day 23', () => {
    const allDay = { sunday: [at('00:00', '24:00')] };
    const length = (date: string) =>
      workingSpans(NY, allDay, {}, date).reduce((sum, s) => sum + s.until - s.from, 0);
    expect(length('2026-11-01')).toBe(25 * HOUR);
    expect(length('2026-03-08')).toBe(23 * HOUR);
    expect(length('2026-06-14')).toBe(24 * HOUR);
  });
});
