import { DAY, HOUR } from '../../common/time/durations';
import { BusyKind } from '../catalog';
import { timesKey, timesValidUntil } from './availability-answers';
import type { AvailableTimesRequest } from './availability.requests';
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

describe('timesKey', () => {
  const query = (q: Partial<AvailableTimesRequest>): AvailableTimesRequest => ({
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
      // A collective hold's other calendars: free again when it expires, no write telling.
      ['held members', context({ calendarsBusyKinds: BusyKind.heldMembers })],
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
