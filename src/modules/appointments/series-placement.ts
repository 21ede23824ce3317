import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { DomainError } from '../../common/errors/domain-error';
import { formatInZone } from '../../common/time/datetimes';
import {
  CalendarLocks,
  NoAvailableCalendarError,
  assignedOrder,
  hostFirst,
  NotAvailableError,
  type Placement,
  type SlotContext,
  SlotPlacement,
} from '../availability';
import type { BookingChecked } from './booked-appointment';
import { type Occurrence, type Recurrence, occurrencesOf } from './series-recurrence';
import { SeriesRepository } from './series.repository';

type SlotCalendar = SlotContext['calendars'][number];

/** One calendar's try at a series: the occurrences in the calendar's zone. */
export interface SeriesPlan {
  calendar: SlotCalendar;
  occurrences: Occurrence[];
}

/** An occurrence as checked: its datetime as the API writes it, and why it was refused (if it was). */
export interface OccurrenceOutcome {
  datetime: string;
  refusal: DomainError | null;
}

/** The calendars that may take a series (the hold's, the one named, or the type's), by id. */
export function seriesPlans(checked: BookingChecked, recurrence: Recurrence): SeriesPlan[] {
  const { ctx, hold, start } = checked;
  const calendars = hold ? ctx.calendars.filter((c) => c.id === hold.calendarId) : ctx.calendars;
  // A collective type's series takes all its calendars together: one plan, its host's.
  if (ctx.type.collective)
    return calendars.slice(0, 1).map((calendar) => ({
      calendar,
      occurrences: occurrencesOf(start, calendar.timezone, recurrence),
    }));
  return [...calendars]
    .sort((a, b) => a.id - b.id)
    .map((calendar) => ({
      calendar,
      occurrences: occurrencesOf(start, calendar.timezone, recurrence),
    }));
}

/**
 * The plans in the order the type's assignment tries their calendars for the series' first start
 * (read under the calendars' locks): ascending id for `first`, or a calendar named or held.
 */
async function assignedPlans(
  tx: EntityManager,
  checked: BookingChecked,
  plans: SeriesPlan[],
): Promise<SeriesPlan[]> {
  if (checked.calendarNamed || checked.hold || plans.length < 2) return plans;
  const calendars = plans.map((p) => p.calendar);
  const { calendars: ordered } = await assignedOrder(
    tx,
    { type: checked.ctx.type, calendars },
    checked.start,
  );
  return ordered.map((c) => plans.find((p) => p.calendar === c)!);
}

/**
 * Where a series goes, decided in its transaction (docs/series.md): the calendars locked in
 * ascending id order, then each occurrence placed as a single booking is (SlotPlacement: the
 * advance window, the busy time read under the lock, the booking limits, class seats) and handed to
 * `take`, which inserts it: the next occurrences are checked with it, so a series never overlaps
 * itself nor passes a limit with its own occurrences. The calendars are tried in the order of the
 * type's assignment (ascending id for `first`). The first calendar whose every occurrence is
 * placed takes the series; a calendar that refused one is undone to a savepoint before the next is
 * tried. After a refused occurrence nothing more is taken: the rest are checked on what is
 * committed and what was taken before it.
 */
@Injectable()
export class SeriesPlacement {
  constructor(
    private readonly placement: SlotPlacement,
    private readonly locks: CalendarLocks,
    private readonly series: SeriesRepository,
  ) {}

  /** The plan taken (none refused), else the one refused fewest times (the first tried among equals). */
  async place(
    tx: EntityManager,
    checked: BookingChecked,
    plans: SeriesPlan[],
    admin: boolean,
    take: (index: number, start: number, placement: Placement) => Promise<void>,
  ): Promise<{ plan: SeriesPlan; outcomes: OccurrenceOutcome[] }> {
    const { ctx } = checked;
    const locked = ctx.type.collective ? ctx.calendars : plans.map((p) => p.calendar);
    await this.locks.lock(
      tx,
      locked.map((c) => c.id),
    );
    const ordered = await assignedPlans(tx, checked, plans);
    let fewest: { plan: SeriesPlan; outcomes: OccurrenceOutcome[]; refused: number } | undefined;
    for (const plan of ordered) {
      if (ordered.length > 1) await this.series.savepoint(tx);
      const outcomes = await this.tryPlan(tx, checked, plan, admin, take);
      const refused = outcomes.filter((o) => o.refusal !== null).length;
      if (refused === 0) return { plan, outcomes };
      if (ordered.length > 1) await this.series.rollbackToSavepoint(tx);
      if (!fewest || refused < fewest.refused) fewest = { plan, outcomes, refused };
    }
    return fewest!;
  }

  private async tryPlan(
    tx: EntityManager,
    checked: BookingChecked,
    plan: SeriesPlan,
    admin: boolean,
    take: (index: number, start: number, placement: Placement) => Promise<void>,
  ): Promise<OccurrenceOutcome[]> {
    const { ctx } = checked;
    // A collective type's: every calendar, the plan's (its host) first.
    const calendars = ctx.type.collective
      ? hostFirst(ctx.calendars, plan.calendar.id)
      : [plan.calendar];
    const one = { ...ctx, calendars };
    const outcomes: OccurrenceOutcome[] = [];
    for (const [i, { start, local }] of plan.occurrences.entries()) {
      const datetime =
        start === null ? local : formatInZone(new Date(start), plan.calendar.timezone);
      // The first occurrence's messages quote it as it was sent, as a single booking's do.
      const datetimeText = i === 0 ? checked.datetimeText : datetime;
      try {
        if (start === null) throw new NotAvailableError('not_available', datetimeText);
        const placement = admin
          ? await this.placement.admin(tx, one, start)
          : await this.placement.client(tx, one, {
              start,
              datetimeText,
              calendarNamed: checked.calendarNamed,
              hold: i === 0 ? checked.hold : undefined,
            });
        if (outcomes.every((o) => o.refusal === null)) await take(i, start, placement);
        outcomes.push({ datetime, refusal: null });
      } catch (e) {
        if (!(e instanceof NotAvailableError || e instanceof NoAvailableCalendarError)) throw e;
        outcomes.push({ datetime, refusal: e });
      }
    }
    return outcomes;
  }
}
