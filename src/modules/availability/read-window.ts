import { MINUTE } from '../../common/time/durations';
import { isValidTimezone } from '../../common/time/zones';
import type { SlotContext } from './slot-context';
import type { Span } from './working-time';
import { BoundedMap } from '../../common/cache/bounded-map';

/*
 * How much busy time /availability/times and /dates read with the context (one round trip), before
 * the type's paddings and zone are known (for any of them, a day costs four days of appointments):
 * planned from what the last question about the type and calendar found (zone, reach around a
 * start) and checked once the context is known; a plan short of what the answer needs is read again
 * for exactly that (readBusyTime): a stale hint costs a round trip, never a wrong answer.
 */

interface Hint {
  /** The zone dates were read in when no `timezone` was asked. */
  zone: string | undefined;
  /** Minutes of busy time that matter before a start, and after it. */
  before: number;
  after: number;
}

/** Bounded: cleared when full (a hint only saves a round trip). */
const MAX_HINTS = 10_000;
const hints = new BoundedMap<string, Hint>(MAX_HINTS);

export interface BusyReadPlan {
  key: string;
  /** The busy time read with the context. */
  read: Span;
  /** The zone the plan read the window in, and that window; the answer's when the zone is. */
  zone?: string;
  window?: Span;
}

/**
 * The busy time to read for a question about a type (and calendar) over the date or month `parse`
 * reads in a zone (undefined for an invalid one, refused later); `wide`: when nothing is known.
 */
export function planBusyRead(
  request: { appointmentTypeID: number; calendarID?: number; timezone?: string },
  parse: ((zone: string) => Span) | undefined,
  wide: () => Span,
): BusyReadPlan {
  const key = `${request.appointmentTypeID}:${request.calendarID ?? ''}`;
  const hint = hints.get(key);
  const zone =
    request.timezone === undefined
      ? hint?.zone
      : isValidTimezone(request.timezone)
        ? request.timezone
        : undefined;
  if (!hint || zone === undefined || !parse) return { key, read: wide() };
  let window: Span;
  try {
    window = parse(zone);
  } catch {
    // Refused later, in the contract's order (after what the context query finds).
    return { key, read: wide() };
  }
  return { key, read: around(window, hint.before, hint.after), zone, window };
}

/** Keeps the busy time read only if it covers `window`'s starts; remembers zone and reach. */
export function settleBusyRead(
  plan: BusyReadPlan,
  ctx: SlotContext,
  zone: string,
  window: Span,
  timezoneAsked: boolean,
): void {
  const before = ctx.rules.paddingBefore;
  const after = ctx.rules.duration + ctx.rules.paddingAfter;
  const needed = around(window, before, after);
  if (ctx.busy && (plan.read.from > needed.from || plan.read.until < needed.until))
    ctx.busy = undefined;
  const known = hints.get(plan.key);
  const hintZone = timezoneAsked ? known?.zone : zone;
  if (known && known.zone === hintZone && known.before === before && known.after === after) return;
  hints.set(plan.key, { zone: hintZone, before, after });
}

/** The busy time that decides starts in `window`: `before` minutes earlier, `after` later. */
function around(window: Span, before: number, after: number): Span {
  return { from: window.from - before * MINUTE, until: window.until + after * MINUTE };
}
