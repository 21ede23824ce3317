import ICAL from 'ical.js';
import { DateTime, IANAZone } from 'luxon';
import type { Span } from '../availability';

/** What a calendar's sources' events come to: busy spans (any order, may overlap) and a count. */
export interface ExpandedBusy {
  spans: Span[];
  /** Busy occurrences in the window (free and cancelled ones left out). */
  events: number;
}

/**
 * What one source may ask of the expansion (CALENDAR_SYNC_MAX_EVENTS, _MAX_OCCURRENCES): VEVENTs of
 * any date and busy occurrences in the window. More is a calendar no person keeps: refused.
 */
export interface ExpansionLimits {
  maxEvents: number;
  maxOccurrences: number;
  /** Steps of all the source's series together; MAX_STEPS unless given. */
  maxSteps?: number;
}

/**
 * Steps (one occurrence each, tens of µs on the worker's only thread, from the series' start) all
 * of a source's series may take: 50 daily series begun ten years ago take 183,000.
 */
export const MAX_STEPS = 200_000;

/** How long the walk goes on past the window, to find occurrences an override moved into it. */
const MOVED_IN_SLACK_MS = 31 * 24 * 3600 * 1000;

export class CalendarDataError extends Error {}

/** Data past the limits of ExpansionLimits or MAX_STEPS. */
export class TooManyEventsError extends Error {}

/**
 * The busy time during `window` of iCalendar texts (a feed's one, a CalDAV collection's many, each
 * added as it is read), as RFC 5545 has it, ical.js parsing and recurring:
 *
 * - a series (RRULE, RDATE) less its EXDATEs, each RECURRENCE-ID override replacing its occurrence;
 * - free (TRANSP:TRANSPARENT) and STATUS:CANCELLED events and occurrences are not busy;
 * - a TZID is read in the object's VTIMEZONE, else as an IANA zone (Google, Fastmail); UTC as UTC;
 *   floating times and all-day dates in the calendar's `zone` (the staff member's local day).
 *
 * A text is expanded alone (a CalDAV object holds a series with its overrides: RFC 4791 §4.1), so
 * it is garbage once added. CalendarDataError for a text that does not parse, TooManyEventsError
 * past the limits; nothing is stored before the whole source is read.
 */
export class BusyExpansion {
  private readonly walk: Walk;

  constructor(
    window: Span,
    private readonly zone: string,
    limits: ExpansionLimits,
  ) {
    this.walk = { window, limits, spans: [], events: 0, steps: 0 };
  }

  add(text: string): void {
    const { walk } = this;
    let root: ICAL.Component;
    try {
      root = new ICAL.Component(ICAL.parse(text) as unknown[]);
    } catch (e) {
      throw new CalendarDataError(
        `not iCalendar data: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    const calendars = root.name === 'vcalendar' ? [root] : root.getAllSubcomponents('vcalendar');
    if (calendars.length === 0) throw new CalendarDataError('no VCALENDAR in the data');
    for (const calendar of calendars) {
      walk.events += calendar.getAllSubcomponents('vevent').length;
      if (walk.events > walk.limits.maxEvents)
        throw new TooManyEventsError(`more than ${walk.limits.maxEvents} events`);
    }
    for (const calendar of calendars) expandCalendar(calendar, this.zone, walk);
  }

  result(): ExpandedBusy {
    const { spans } = this.walk;
    return { spans: spans.filter((s) => s.until > s.from), events: spans.length };
  }
}

export function expandBusy(
  texts: string[],
  window: Span,
  zone: string,
  limits: ExpansionLimits,
): ExpandedBusy {
  const expansion = new BusyExpansion(window, zone, limits);
  for (const text of texts) expansion.add(text);
  return expansion.result();
}

interface Walk {
  window: Span;
  limits: ExpansionLimits;
  spans: Span[];
  events: number;
  steps: number;
}

/**
 * ical.js matches EXDATEs and RECURRENCE-IDs through its global registry of zones: the object's
 * VTIMEZONEs are registered for the walk, which is synchronous (no other sees them), and removed.
 */
function expandCalendar(calendar: ICAL.Component, zone: string, walk: Walk): void {
  const zones = new Map<string, ICAL.Timezone>();
  for (const vtimezone of calendar.getAllSubcomponents('vtimezone')) {
    const tz = new ICAL.Timezone(vtimezone);
    if (tz.tzid && !ICAL.TimezoneService.has(tz.tzid)) zones.set(tz.tzid, tz);
  }
  for (const [tzid, tz] of zones) ICAL.TimezoneService.register(tz, tzid);
  try {
    expandEvents(calendar, new InstantReader(zones, zone), walk);
  } finally {
    for (const tzid of zones.keys()) ICAL.TimezoneService.remove(tzid);
  }
}

function expandEvents(calendar: ICAL.Component, reader: InstantReader, walk: Walk): void {
  const byUid = new Map<string, { master?: ICAL.Component; overrides: ICAL.Component[] }>();
  for (const vevent of calendar.getAllSubcomponents('vevent')) {
    const uid = String(vevent.getFirstPropertyValue('uid') ?? `no-uid-${byUid.size}`);
    const group = byUid.get(uid) ?? { overrides: [] };
    if (vevent.hasProperty('recurrence-id')) group.overrides.push(vevent);
    else group.master = vevent;
    byUid.set(uid, group);
  }
  for (const { master, overrides } of byUid.values()) {
    if (!master) {
      // Overrides without their series (an invitation to one occurrence): each stands alone.
      for (const override of overrides) single(new ICAL.Event(override), reader, walk);
      continue;
    }
    const event = new ICAL.Event(master, { exceptions: overrides, strictExceptions: true });
    if (notBusy(master)) continue;
    if (event.isRecurring()) series(event, reader, walk);
    else single(event, reader, walk);
  }
}

function single(event: ICAL.Event, reader: InstantReader, walk: Walk): void {
  if (notBusy(event.component)) return;
  if (!event.startDate) return;
  push(walk, reader.span(event.component, event.startDate, event.endDate));
}

function series(event: ICAL.Event, reader: InstantReader, walk: Walk): void {
  const { window } = walk;
  const iterator = event.iterator();
  for (;;) {
    const maxSteps = walk.limits.maxSteps ?? MAX_STEPS;
    if (++walk.steps > maxSteps)
      throw new TooManyEventsError(`series repeating more than ${maxSteps} times`);
    const next = iterator.next();
    if (!next) return;
    // The occurrence as the series has it; past the window (and the slack), the walk ends.
    if (reader.instant(event.component, 'dtstart', next) > window.until + MOVED_IN_SLACK_MS) return;
    const details = event.getOccurrenceDetails(next);
    const item = details.item.component;
    if (notBusy(item)) continue;
    push(walk, reader.span(item, details.startDate, details.endDate));
  }
}

/**
 * What of a busy span lies in the window: spans are stored a day a row, and an event from year
 * 1000 to 3000 is a few bytes of a feed.
 */
function push(walk: Walk, span: Span): void {
  const { window } = walk;
  if (span.until <= window.from || span.from >= window.until) return;
  if (walk.spans.length >= walk.limits.maxOccurrences)
    throw new TooManyEventsError(
      `more than ${walk.limits.maxOccurrences} busy occurrences in the window`,
    );
  walk.spans.push({
    from: Math.max(span.from, window.from),
    until: Math.min(span.until, window.until),
  });
}

/** Free (TRANSP:TRANSPARENT) or STATUS:CANCELLED. */
function notBusy(vevent: ICAL.Component): boolean {
  const value = (name: string) => String(vevent.getFirstPropertyValue(name) ?? '').toUpperCase();
  return value('transp') === 'TRANSPARENT' || value('status') === 'CANCELLED';
}

/** Reads an event's local times as instants, by the rules of expandBusy. */
class InstantReader {
  constructor(
    private readonly zones: Map<string, ICAL.Timezone>,
    private readonly calendarZone: string,
  ) {}

  span(vevent: ICAL.Component, start: ICAL.Time, end: ICAL.Time | null): Span {
    const from = this.instant(vevent, 'dtstart', start);
    if (start.isDate) {
      // An all-day event: its dates, whole local days of the calendar (one day without an end).
      let lastDay = end && end.compare(start) > 0 ? end : null;
      if (lastDay === null) {
        lastDay = start.clone();
        lastDay.adjust(1, 0, 0, 0);
      }
      return { from, until: this.instant(vevent, 'dtstart', lastDay) };
    }
    const until = end
      ? this.instant(vevent, vevent.hasProperty('dtend') ? 'dtend' : 'dtstart', end)
      : from;
    return { from, until: Math.max(from, until) };
  }

  /** `time`'s local reading in the zone of `vevent`'s `property` (its TZID), as epoch ms. */
  instant(vevent: ICAL.Component, property: 'dtstart' | 'dtend', time: ICAL.Time): number {
    const local = {
      year: time.year,
      month: time.month,
      day: time.day,
      hour: time.isDate ? 0 : time.hour,
      minute: time.isDate ? 0 : time.minute,
      second: time.isDate ? 0 : time.second,
    };
    if (time.isDate) return this.inZone(local, this.calendarZone);
    const prop = vevent.getFirstProperty(property) ?? vevent.getFirstProperty('dtstart');
    const raw = prop?.getFirstValue();
    const isUtc = raw instanceof ICAL.Time && raw.zone === ICAL.Timezone.utcTimezone;
    const tzid = prop?.getParameter('tzid');
    const tzidText = typeof tzid === 'string' ? tzid : undefined;
    if (isUtc) return this.inZone(local, 'UTC');
    const vtimezone = tzidText === undefined ? undefined : this.zones.get(tzidText);
    if (vtimezone) {
      const zoned = new ICAL.Time({ ...local, isDate: false }, vtimezone);
      return zoned.toUnixTime() * 1000;
    }
    if (tzidText !== undefined && IANAZone.isValidZone(tzidText))
      return this.inZone(local, tzidText);
    return this.inZone(local, this.calendarZone);
  }

  /** A local time in an IANA zone; luxon reads a skipped time as RFC 5545 §3.3.5 asks. */
  private inZone(local: Record<string, number>, zone: string): number {
    return DateTime.fromObject(local, { zone }).toMillis();
  }
}
