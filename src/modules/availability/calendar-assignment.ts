import { type AssignmentWeights, weightOf } from '../catalog';

/*
 * Which free calendar takes a booking that names none (docs/team-scheduling.md), as pure functions
 * of what was read under the calendars' locks.
 *
 * `round-robin` is start-time fair queueing: each calendar's turn lasts 1/weight of the type's
 * virtual time. The calendar whose last turn finished earliest goes first (never booked: before
 * all), so with equal weights the one that has gone longest without an appointment of the type;
 * a calendar of weight 2 finishes its turns twice as fast, so takes twice the share. A turn starts
 * at the later of the calendar's last finish and the latest start any calendar's turn had: a
 * calendar that was busy, away or new takes the next booking it can, then rejoins the rotation
 * instead of catching up on every turn it missed.
 *
 * `balanced`: the fewest appointments of the type in the booking's ISO week, per unit of weight.
 * Ties, in both: the longer since the last assignment (round-robin), the heavier, the lower id.
 */

/** A calendar's last turn in a round-robin type's virtual time (a `calendar_turns` row). */
export interface CalendarTurn {
  calendarId: number;
  servedFrom: number;
  servedUntil: number;
  /** Epoch ms. */
  lastAssignedAt: number;
}

/** Relative: virtual times are sums of 1/weight, compared as equal within rounding. */
const EPSILON = 1e-9;

function compareTimes(a: number, b: number): number {
  const scale = Math.max(1, Math.abs(a), Math.abs(b));
  return Math.abs(a - b) <= EPSILON * scale ? 0 : a - b;
}

function heavierThenLowerId(weights: AssignmentWeights | null) {
  return (a: { id: number }, b: { id: number }): number =>
    weightOf(weights, b.id) - weightOf(weights, a.id) || a.id - b.id;
}

/** `calendars` in the order a round-robin type tries them, given its calendars' turns. */
export function roundRobinOrder<C extends { id: number }>(
  calendars: readonly C[],
  turns: readonly CalendarTurn[],
  weights: AssignmentWeights | null,
): C[] {
  const turnOf = new Map(turns.map((t) => [t.calendarId, t]));
  const tie = heavierThenLowerId(weights);
  return [...calendars].sort((a, b) => {
    const ta = turnOf.get(a.id);
    const tb = turnOf.get(b.id);
    if (!ta || !tb) return ta === tb ? tie(a, b) : ta ? 1 : -1;
    return (
      compareTimes(ta.servedUntil, tb.servedUntil) ||
      ta.lastAssignedAt - tb.lastAssignedAt ||
      tie(a, b)
    );
  });
}

/** `calendars` in the order a balanced type tries them, given each one's count this week. */
export function balancedOrder<C extends { id: number }>(
  calendars: readonly C[],
  counts: ReadonlyMap<number, number>,
  weights: AssignmentWeights | null,
): C[] {
  const tie = heavierThenLowerId(weights);
  const count = (c: C) => counts.get(c.id) ?? 0;
  // count/weight compared without division: exact.
  return [...calendars].sort(
    (a, b) => count(a) * weightOf(weights, b.id) - count(b) * weightOf(weights, a.id) || tie(a, b),
  );
}

/**
 * The calendar's turn after it takes `taken` appointments at `now`, given every turn of the type.
 * A series takes several at once: as many turns in a row, started where the first one starts, so
 * that the others catch up on them (its last turn's start would let them skip theirs).
 */
export function nextTurn(
  turns: readonly CalendarTurn[],
  calendarId: number,
  weight: number,
  taken: number,
  now: number,
): CalendarTurn {
  const latestStart = turns.reduce((latest, t) => Math.max(latest, t.servedFrom), 0);
  const own = turns.find((t) => t.calendarId === calendarId);
  const from = Math.max(latestStart, own?.servedUntil ?? 0);
  return {
    calendarId,
    servedFrom: from,
    servedUntil: from + taken / weight,
    lastAssignedAt: now,
  };
}
