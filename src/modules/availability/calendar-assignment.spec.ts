import { type CalendarTurn, balancedOrder, nextTurn, roundRobinOrder } from './calendar-assignment';

/** A team's calendars, ascending id. */
const team = (n: number) => Array.from({ length: n }, (_, i) => ({ id: 10 + i }));

/**
 * `bookings` round-robin bookings one after another, each on the first calendar in order that
 * `free` lets take it; the count each calendar took.
 */
function simulate(
  calendars: { id: number }[],
  bookings: number,
  weights: Record<string, number> | null,
  free: (calendarId: number, booking: number) => boolean = () => true,
  turns: CalendarTurn[] = [],
): Map<number, number> {
  const counts = new Map(calendars.map((c) => [c.id, 0]));
  for (let i = 0; i < bookings; i++) {
    const chosen = roundRobinOrder(calendars, turns, weights).find((c) => free(c.id, i));
    if (!chosen) continue;
    counts.set(chosen.id, counts.get(chosen.id)! + 1);
    const turn = nextTurn(turns, chosen.id, weights?.[chosen.id] ?? 1, 1, i);
    turns = [...turns.filter((t) => t.calendarId !== chosen.id), turn];
  }
  return counts;
}

describe('round-robin', () => {
  it('gives 3 calendars 10 each of 30 bookings, in turn', () => {
    const calendars = team(3);
    let turns: CalendarTurn[] = [];
    const order: number[] = [];
    for (let i = 0; i < 6; i++) {
      const [chosen] = roundRobinOrder(calendars, turns, null);
      order.push(chosen.id);
      turns = [
        ...turns.filter((t) => t.calendarId !== chosen.id),
        nextTurn(turns, chosen.id, 1, 1, i),
      ];
    }
    expect(order).toEqual([10, 11, 12, 10, 11, 12]);
    expect([...simulate(calendars, 30, null).values()]).toEqual([10, 10, 10]);
  });

  it('gives weights 2:1:1 20/10/10 of 40 bookings, and the share at every full round', () => {
    const weights = { '10': 2, '11': 1, '12': 1 };
    expect([...simulate(team(3), 40, weights).values()]).toEqual([20, 10, 10]);
    for (let n = 4; n <= 40; n += 4)
      expect([...simulate(team(3), n, weights).values()]).toEqual([n / 2, n / 4, n / 4]);
    // Weights 3:1 and 100:1 hold their shares too.
    expect([...simulate(team(2), 400, { '10': 3 }).values()]).toEqual([300, 100]);
    expect([...simulate(team(2), 1010, { '10': 100 }).values()]).toEqual([1000, 10]);
  });

  it('puts the calendar that has gone longest without one first, and never booked before all', () => {
    const turns = [
      { calendarId: 10, servedFrom: 1, servedUntil: 2, lastAssignedAt: 5 },
      { calendarId: 11, servedFrom: 1, servedUntil: 2, lastAssignedAt: 3 },
    ];
    expect(roundRobinOrder(team(3), turns, null).map((c) => c.id)).toEqual([12, 11, 10]);
    // Among equals: the heavier, then the lower id.
    expect(roundRobinOrder(team(3), [], { '12': 2 }).map((c) => c.id)).toEqual([12, 10, 11]);
  });

  it('lets a calendar that was busy take the next booking it can, then rejoin the rotation', () => {
    // Calendar 10 is busy for the first 12 bookings: 11 and 12 share them.
    const busyAtFirst = (id: number, booking: number) => id !== 10 || booking >= 12;
    const counts = simulate(team(3), 12, null, busyAtFirst);
    expect([...counts.values()]).toEqual([0, 6, 6]);
    // Then it takes one (it has gone longest), and the three alternate: no catching up.
    const after = simulate(team(3), 12 + 9, null, busyAtFirst);
    expect([...after.values()]).toEqual([3, 9, 9]);
  });

  it('keeps every count within 1 of the others whatever the order of ties (equal weights)', () => {
    for (let seed = 1; seed <= 50; seed++) {
      let state = seed;
      const random = () => (state = (state * 48271) % 2147483647) / 2147483647;
      const calendars = team(2 + (seed % 4));
      // Every calendar free: a random number of bookings keeps the counts within 1.
      const counts = [...simulate(calendars, Math.floor(random() * 100), null).values()];
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    }
  });

  it('records a series as that many turns in a row, started at its first, so the others catch up', () => {
    expect(nextTurn([], 10, 2, 4, 0)).toMatchObject({ servedFrom: 0, servedUntil: 2 });
    // 10 took one, then 11 a series of 3: 10 takes the next two, then they alternate.
    const counts = simulate(team(2), 3, null, () => true, [
      { calendarId: 10, servedFrom: 0, servedUntil: 1, lastAssignedAt: 0 },
      {
        ...nextTurn(
          [{ calendarId: 10, servedFrom: 0, servedUntil: 1, lastAssignedAt: 0 }],
          11,
          1,
          3,
          -1,
        ),
      },
    ]);
    expect([...counts.values()]).toEqual([2, 1]);
  });
});

describe('balanced', () => {
  it('puts the fewest this week per unit of weight first, ties the heavier then the lower id', () => {
    const counts = new Map([
      [10, 4],
      [11, 1],
      [12, 2],
    ]);
    expect(balancedOrder(team(3), counts, null).map((c) => c.id)).toEqual([11, 12, 10]);
    // 4/2 = 2 ties 12's 2/1: the heavier first.
    expect(balancedOrder(team(3), counts, { '10': 2 }).map((c) => c.id)).toEqual([11, 10, 12]);
    expect(balancedOrder(team(3), new Map(), null).map((c) => c.id)).toEqual([10, 11, 12]);
  });
});
