import { MINUTE } from '../../common/time/durations';
import type { Addon, AppointmentType, Calendar } from '../catalog';
import { MAX_APPOINTMENT_MINUTES } from './busy-time';
import { type CalendarSchedule, type SlotRules, commonStartsOf, freeStarts } from './slot-engine';
import type { Span } from './working-time';

/** What a question about availability (or a booking) is about, checked against the account. */
export interface SlotRequest {
  appointmentTypeID: number;
  calendarID?: number;
  addonIDs?: number[];
}

/** The parts of a type and a calendar that availability reads. */
export type SlotType = Pick<
  AppointmentType,
  | 'id'
  | 'accountId'
  | 'name'
  | 'category'
  | 'active'
  | 'kind'
  | 'duration'
  | 'classSize'
  | 'paddingBefore'
  | 'paddingAfter'
  | 'slotInterval'
  | 'minHoursInAdvance'
  | 'maxDaysInAdvance'
  | 'priceCents'
  | 'maxPerDay'
  | 'maxPerWeek'
  | 'resourceLinks'
  | 'assignment'
  | 'assignmentWeights'
  | 'collective'
> & {
  /** Whether any form is linked (booking reads the forms' fields only then); unknown if absent. */
  hasForms?: boolean;
};
export type SlotCalendar = Pick<
  Calendar,
  'id' | 'name' | 'timezone' | 'location' | 'hours' | 'overrides' | 'maxPerDay' | 'maxPerWeek'
>;

/**
 * Free starts in `window` over the context's calendars: start → how many calendars can take it
 * (each within its booking limits). With `datesIn`, a calendar of that zone gives only its first of
 * each day (see monthStarts). A collective type's: the starts every calendar can take, each once.
 */
export function startCounts(
  ctx: Pick<SlotContext, 'type' | 'calendars' | 'rules'>,
  busy: Map<number, Span[]>,
  options: {
    window: Span;
    now: number;
    withinLimits: ((calendar: SlotCalendar, start: number) => boolean) | null;
    datesIn?: string;
  },
): Map<number, number> {
  const { window, now, withinLimits, datesIn } = options;
  const counts = new Map<number, number>();
  if (ctx.type.collective) {
    const each = ctx.calendars.map((calendar) => ({
      schedule: scheduleOf(calendar, busy),
      fits: withinLimits ? (start: number) => withinLimits(calendar, start) : undefined,
    }));
    for (const start of commonStartsOf(each, ctx.rules, window, now)) counts.set(start, 1);
    return counts;
  }
  for (const calendar of ctx.calendars) {
    const schedule = scheduleOf(calendar, busy);
    const firstOfEachDay = calendar.timezone === datesIn;
    for (const start of freeStarts(schedule, ctx.rules, window, now, firstOfEachDay))
      if (!withinLimits || withinLimits(calendar, start))
        counts.set(start, (counts.get(start) ?? 0) + 1);
  }
  return counts;
}

/** `calendars` with the one of `hostId` first, the rest in their order (a collective's host). */
export function hostFirst<C extends { id: number }>(calendars: readonly C[], hostId: number): C[] {
  return [...calendars.filter((c) => c.id === hostId), ...calendars.filter((c) => c.id !== hostId)];
}

/** A calendar as the slot engine sees it, with its busy time. */
export function scheduleOf(calendar: SlotCalendar, busy: Map<number, Span[]>): CalendarSchedule {
  return {
    zone: calendar.timezone,
    hours: calendar.hours,
    overrides: calendar.overrides,
    busy: busy.get(calendar.id) ?? [],
  };
}

/** The type, the calendars that may take it, and the rules the engine applies. */
export interface SlotContext {
  type: SlotType;
  /**
   * The calendar asked for, or every live calendar of the type (ascending id); a collective type's
   * always every one, the one asked for (its host) first.
   */
  calendars: SlotCalendar[];
  addons: Addon[];
  rules: SlotRules;
  /** The calendars' busy time over the span asked for with the context, by calendar id. */
  busy?: Map<number, Span[]>;
  /** The BusyKind bits of any of `calendars` (the kinds of busy time they ever had), if read. */
  calendarsBusyKinds?: number;
  /** Whether a live hold uses a resource the type needs (its time may free at the hold's expiry). */
  resourcesHeld?: boolean;
  /** The live resources the type needs, when their uses were read (as views name them). */
  resources?: { id: number; name: string }[];
  /** The type's live addons by id, if read (the scheduling page's date step). */
  addonIds?: number[];
}

/** Whether the type is offered at all: not when inactive, or longer than a day with its addons. */
export function isOffered({ type, rules }: SlotContext): boolean {
  return type.active && rules.duration <= MAX_APPOINTMENT_MINUTES;
}

/** The busy time to read for starts in `window` whatever the type (a day's padding each side). */
export function busySpanAround(window: Span): Span {
  return {
    from: window.from - 1440 * MINUTE,
    until: window.until + (MAX_APPOINTMENT_MINUTES + 1440) * MINUTE,
  };
}
