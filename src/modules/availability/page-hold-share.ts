import type { EntityManager } from 'typeorm';
import { limitFilter } from './booking-limits';
import { busyAround } from './busy-time';
import { readSlotBusy } from './resource-usage.repository';
import { classDayShare, pageHoldSpans } from './slot-hold.repository';
import { type SlotContext, isOffered, scheduleOf } from './slot-context';
import { freeStarts } from './slot-engine';
import { type Span, localDateOf, nextDate, startOfLocalDate } from './working-time';

/** What the scheduling page's holds take of a day: of `offered` times (or seats), `taken`. */
export interface DayShare {
  offered: number;
  taken: number;
}

/**
 * The share of a local day (of `start`, in the client's `zone`) that the scheduling page's live
 * holds take from the context's type, as `/availability/times` measures the day:
 * - a service: `offered`, the distinct starts the day offers with no page hold (their busy time and
 *   counts left out); `taken`, how many of those it does not offer now (a long type on a short grid
 *   loses several starts to one hold: counting starts keeps the day bookable).
 * - a class: `offered`, the seats of the day's sessions; `taken`, the seats page holds take.
 * Read in the hold's transaction, after the hold is written, under the account's hold row (every
 * hold writes it first: CreateSlotHoldHandler): the new hold counts, no other is written meanwhile.
 */
export async function pageHoldDayShare(
  tx: EntityManager,
  ctx: SlotContext,
  start: number,
  zone: string,
  now: number,
): Promise<DayShare> {
  const date = localDateOf(zone, start);
  const day = { from: startOfLocalDate(zone, date), until: startOfLocalDate(zone, nextDate(date)) };
  const calendarIds = ctx.calendars.map((c) => c.id);
  if (ctx.type.kind === 'class') return classDayShare(tx, ctx.type, calendarIds, day, now);
  if (!isOffered(ctx) || calendarIds.length === 0) return { offered: 0, taken: 0 };
  const { rules } = ctx;
  const read = busyAround(rules, day);
  const busy = await readSlotBusy(tx, ctx, calendarIds, { ...read, ignoreAppointmentIds: [] });
  const pageHolds = await pageHoldSpans(tx, ctx.type.accountId, calendarIds, read, now);
  const withoutPageHolds = withoutSpans(busy, pageHolds);
  const starts = async (spans: Map<number, Span[]>, pageHolds: boolean): Promise<Set<number>> => {
    const within = await limitFilter(tx, ctx, day, { pageHolds });
    const offered = new Set<number>();
    for (const calendar of ctx.calendars)
      for (const s of freeStarts(scheduleOf(calendar, spans), rules, day, now))
        if (!within || within(calendar, s)) offered.add(s);
    return offered;
  };
  const without = await starts(withoutPageHolds, false);
  const offeredNow = await starts(busy, true);
  let taken = 0;
  for (const s of without) if (!offeredNow.has(s)) taken++;
  return { offered: without.size, taken };
}

/** Whether page holds taking `share` of a day stay within `percent` of it (rounded down). */
export function withinDayShare(share: DayShare, percent: number): boolean {
  return share.taken * 100 <= share.offered * percent;
}

/** `busy` without one span equal to each of `removed` (an appointment of the same span stays). */
function withoutSpans(
  busy: Map<number, Span[]>,
  removed: Map<number, Span[]>,
): Map<number, Span[]> {
  const out = new Map<number, Span[]>();
  for (const [id, spans] of busy) {
    const left = [...spans];
    for (const r of removed.get(id) ?? []) {
      const i = left.findIndex((s) => s.from === r.from && s.until === r.until);
      if (i >= 0) left.splice(i, 1);
    }
    out.set(id, left);
  }
  return out;
}
