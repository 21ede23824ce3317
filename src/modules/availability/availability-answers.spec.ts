import { DAY, HOUR } from '../../common/time/durations';
import { BusyKind } from '../catalog';
import { AvailabilityAnswers, timesKey, timesValidUntil } from './availability-answers';
import type { AvailableTimesQuery } from './availability.requests';
import type { SlotContext } from './slot-context';

const NOW = Date.UTC(2030, 5, 1, 12);
const NY = 'America/New_York';
const RULES = {
  duration: 60,
  paddingBefore: 0,
  paddingAfter: 0,
  slotInterval: 60,
  minHoursInAdvance: 2,
  maxDaysInAdvance: 30,
};
const answer = () => [{ time: '2030-06-03T09:00:00-0400', slotsAvailable: 1 }];

describe('AvailabilityAnswers', () => {
  it('serves an answer under the epoch it was kept with, until its end, and drops it after', () => {
    const answers = new AvailabilityAnswers(60_000);
    answers.keep('k', 'e1', { answer: answer(), validUntil: NOW + 10_000 }, NOW);
    expect(answers.get('k', 'e1', NOW + 10_000)).toEqual(answer());
    expect(answers.get('k', 'e2', NOW)).toBeUndefined();
    // A stale epoch dropped it: the right epoch finds nothing either.
    expect(answers.get('k', 'e1', NOW)).toBeUndefined();
    answers.keep('k', 'e1', { answer: answer(), validUntil: NOW + 10_000 }, NOW);
    expect(answers.get('k', 'e1', NOW + 10_001)).toBeUndefined();
  });

  it('keeps an answer at most the ttl, and nothing that is already invalid or with ttl 0', () => {
    const answers = new AvailabilityAnswers(60_000);
    answers.keep('k', 'e', { answer: answer(), validUntil: Infinity }, NOW);
    expect(answers.get('k', 'e', NOW + 60_000)).toEqual(answer());
    expect(answers.get('k', 'e', NOW + 60_001)).toBeUndefined();
    answers.keep('k', 'e', { answer: answer(), validUntil: NOW }, NOW);
    expect(answers.get('k', 'e', NOW)).toBeUndefined();
    const none = new AvailabilityAnswers(0);
    none.keep('k', 'e', { answer: answer(), validUntil: Infinity }, NOW);
    expect(none.get('k', 'e', NOW)).toBeUndefined();
  });

  it('drops the oldest kept answer beyond maxEntries, and freezes what it shares', () => {
    const answers = new AvailabilityAnswers(60_000, 2);
    for (const key of ['a', 'b', 'c'])
      answers.keep(key, 'e', { answer: answer(), validUntil: Infinity }, NOW);
    expect(['a', 'b', 'c'].map((key) => answers.get(key, 'e', NOW) !== undefined)).toEqual([
      false,
      true,
      true,
    ]);
    const kept = answers.get('c', 'e', NOW)!;
    expect(Object.isFrozen(kept) && Object.isFrozen(kept[0])).toBe(true);
  });
});

describe('timesKey', () => {
  const query = (q: Partial<AvailableTimesQuery>): AvailableTimesQuery => ({
    appointmentTypeID: 1,
    date: '2030-06-03',
    ...q,
  });

  const ACCOUNT = { id: 1, timezone: NY, minHoursInAdvance: 2, maxDaysInAdvance: 60 };

  it('tells apart every part of the question, the account and its settings, whatever the strings hold', () => {
    const keys = [
      timesKey(ACCOUNT, query({})),
      timesKey({ ...ACCOUNT, id: 2 }, query({})),
      timesKey({ ...ACCOUNT, timezone: 'UTC' }, query({})),
      timesKey({ ...ACCOUNT, minHoursInAdvance: 3 }, query({})),
      timesKey({ ...ACCOUNT, maxDaysInAdvance: 9 }, query({})),
      timesKey(ACCOUNT, query({ calendarID: 3 })),
      timesKey(ACCOUNT, query({ timezone: 'UTC' })),
      timesKey(ACCOUNT, query({ addonIDs: [3] })),
      timesKey(ACCOUNT, query({ ignoreAppointmentIDs: [3] })),
      timesKey(ACCOUNT, query({ date: '2030-06-03","UTC' })),
      timesKey(ACCOUNT, query({ date: '2030-06-03|UTC' })),
      timesKey(ACCOUNT, query({ date: '2030-06-03', timezone: '|UTC' })),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(timesKey(ACCOUNT, query({ addonIDs: [3, 4] }))).toBe(
      timesKey(ACCOUNT, query({ addonIDs: [3, 4] })),
    );
  });
});

describe('timesValidUntil', () => {
  const day = { from: Date.UTC(2030, 5, 3, 4), until: Date.UTC(2030, 5, 4, 4) };
  const nine = Date.UTC(2030, 5, 3, 13);
  const context = (over: Partial<SlotContext> = {}, kind = 'service'): SlotContext =>
    ({
      type: { kind, active: true, maxPerDay: null, maxPerWeek: null },
      calendars: [{ id: 1, maxPerDay: null, maxPerWeek: null }],
      addons: [],
      rules: RULES,
      calendarsBusyKinds: BusyKind.blocks | BusyKind.external | BusyKind.sessions,
      ...over,
    }) as unknown as SlotContext;

  it('is the instant the first time comes within the notice', () => {
    expect(timesValidUntil(context(), day, [nine, nine + HOUR], NOW)).toBe(nine - 2 * HOUR);
  });

  it('is unbounded (the ttl bounds it) for no time, or no calendar offering the type', () => {
    expect(timesValidUntil(context(), day, [], NOW)).toBe(Infinity);
    expect(timesValidUntil(context({ calendars: [] }), day, [], NOW)).toBe(Infinity);
  });

  it('is now (not kept) for classes, holds, booking limits, unknown kinds, a day past the window', () => {
    const cases: [string, SlotContext][] = [
      ['class', context({}, 'class')],
      ['holds', context({ calendarsBusyKinds: BusyKind.holds })],
      ['unknown kinds', context({ calendarsBusyKinds: undefined })],
      [
        'type limits',
        context({
          type: { kind: 'service', active: true, maxPerDay: 3, maxPerWeek: null } as never,
        }),
      ],
      [
        'calendar limits',
        context({ calendars: [{ id: 1, maxPerDay: null, maxPerWeek: 9 }] as never }),
      ],
      [
        'a day the window reaches into',
        context({
          rules: { ...RULES, maxDaysInAdvance: (day.until - 2 - NOW) / DAY },
        }),
      ],
    ];
    for (const [name, ctx] of cases)
      expect({ name, until: timesValidUntil(ctx, day, [nine], NOW) }).toEqual({ name, until: NOW });
    const covered = context({
      rules: { ...RULES, maxDaysInAdvance: (day.until - 1 - NOW) / DAY },
    });
    expect(timesValidUntil(covered, day, [nine], NOW)).toBe(nine - 2 * HOUR);
  });
});
