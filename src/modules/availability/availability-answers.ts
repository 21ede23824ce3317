import { BoundedMap } from '../../common/cache/bounded-map';
import { DAY, HOUR } from '../../common/time/durations';
import type { Account } from '../accounts';
import { BusyKind } from '../catalog';
import type { AvailableTimesQuery } from './availability.requests';
import type { AvailableTime } from './availability.views';
import { hasLimits } from './booking-limits';
import { type SlotContext, isOffered } from './slot-context';
import type { Span } from './working-time';

/** An answer with the last instant (epoch ms) at which the same data gives the same answer. */
export interface TimedAnswer<T> {
  answer: T;
  /** `now` or earlier: not to be kept. */
  validUntil: number;
}

interface Kept {
  epoch: string;
  answer: readonly AvailableTime[];
  /** The earlier of the answer's own validity and the time it was kept plus the ttl. */
  until: number;
}

/**
 * `/availability/times` answers kept by one process, so that the same question asked again while
 * nothing was written for the account costs a Redis round trip instead of the database's and the
 * slot engine's (`/times` within 3× of a `GET /me`).
 *
 * An answer is served only while
 * - its account's write epoch (AccountEpochs) is the one read before the answer's data was: any
 *   write for the account since, on any process, makes it stale;
 * - the clock has not passed its `validUntil`: the instant the advance window drops its first time
 *   (AvailabilityQueries.timedTimes decides what can be kept: a service's times whose calendars
 *   never had holds, under no booking limits, and whose day the maximum advance already covers);
 * - and at most `ttlMs` after it was computed.
 *
 * At most `maxEntries` answers (the oldest kept is dropped first). Answers are frozen: callers share
 * them.
 */
export class AvailabilityAnswers {
  private readonly kept: BoundedMap<string, Kept>;

  constructor(
    private readonly ttlMs: number,
    maxEntries = 10_000,
  ) {
    this.kept = new BoundedMap(maxEntries);
  }

  get(key: string, epoch: string, now: number): readonly AvailableTime[] | undefined {
    const entry = this.kept.get(key);
    if (entry === undefined) return undefined;
    if (entry.epoch === epoch && now <= entry.until) return entry.answer;
    this.kept.delete(key);
    return undefined;
  }

  /** Keeps `timed` under `epoch` (read before its data) when it stays valid past `now`. */
  keep(key: string, epoch: string, timed: TimedAnswer<AvailableTime[]>, now: number): void {
    const until = Math.min(timed.validUntil, now + this.ttlMs);
    if (this.ttlMs === 0 || until <= now) return;
    this.kept.delete(key);
    for (const item of timed.answer) Object.freeze(item);
    this.kept.set(key, { epoch, answer: Object.freeze(timed.answer), until });
  }
}

/** What a `/times` answer reads of the account (the principal's, as authenticated). */
export type AnsweringAccount = Pick<
  Account,
  'id' | 'timezone' | 'minHoursInAdvance' | 'maxDaysInAdvance'
>;

/**
 * Every part of a `/times` question that its answer depends on, with the account and the settings
 * of it the answer reads: a pod whose principal still has the settings as they were (a change it
 * has not heard of yet, or missed: within AUTH_CACHE_TTL_MS) keeps its answers apart from those of
 * the settings as they are (JSON: no two questions share a key, whatever their strings hold).
 */
export function timesKey(account: AnsweringAccount, query: AvailableTimesQuery): string {
  return JSON.stringify([
    account.id,
    account.timezone,
    account.minHoursInAdvance,
    account.maxDaysInAdvance,
    query.appointmentTypeID,
    query.calendarID ?? null,
    query.date,
    query.timezone ?? null,
    query.addonIDs ?? null,
    query.ignoreAppointmentIDs ?? null,
  ]);
}

/**
 * The last instant (epoch ms) at which `/times` gives the same `starts` (ascending) for `day` while
 * the data it read stays as it was; `now` when the clock alone may change them sooner than anyone
 * can tell:
 * - a class's seats count live holds, which expire: not kept;
 * - a service whose calendars ever had a slot hold (BusyKind.holds; the client pages hold each
 *   time chosen), or that booking limits apply to (they count live holds too): not kept, a hold
 *   expiring frees its time;
 * - a day not wholly within the maximum advance gains times as the clock moves: not kept;
 * - otherwise the clock only takes times away, at the minimum notice: the answer is the same until
 *   its first time is less than the notice away. No time (or no calendar offering the type): the
 *   same until the data changes.
 */
export function timesValidUntil(
  ctx: SlotContext,
  day: Span,
  starts: number[],
  now: number,
): number {
  if (ctx.type.kind === 'class') return now;
  if (!isOffered(ctx) || ctx.calendars.length === 0) return Infinity;
  const kinds = ctx.calendarsBusyKinds;
  if (kinds === undefined || kinds & BusyKind.holds) return now;
  if (hasLimits(ctx.type) || ctx.calendars.some((c) => hasLimits(c))) return now;
  if (day.until - 1 > now + ctx.rules.maxDaysInAdvance * DAY) return now;
  return starts.length === 0 ? Infinity : starts[0] - ctx.rules.minHoursInAdvance * HOUR;
}
