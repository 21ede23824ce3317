import { IANAZone } from 'luxon';
import { shown } from '../../common/errors/domain-error';
import { RequiredParameterError } from '../../common/http/required-parameter';
import { MONTHS } from '../../common/time/datetimes';
import { instantOfLocal, offsetOf } from '../../common/time/zones';
import {
  FREQUENCIES,
  type Frequency,
  MAX_COUNT,
  MIN_COUNT,
  type RecurrenceSettings,
} from '../catalog';
import { InvalidRecurrenceError } from './appointment.errors';

/* How a series repeats, and the occurrences it makes (docs/series.md). */

/** At most every 12th day, week or month. */
export const MAX_INTERVAL = 12;

/** Every `interval` days, weeks or months, `count` occurrences in all. */
export interface Recurrence {
  frequency: Frequency;
  interval: number;
  count: number;
}

function isWholeIn(value: unknown, min: number, max: number): value is number {
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
}

/**
 * `recurrence` as sent, checked: 400 `required_recurrence` without one, `invalid_recurrence` naming
 * what is wrong with it.
 */
export function readRecurrence(value: unknown): Recurrence {
  if (value === undefined || value === null) throw new RequiredParameterError('recurrence');
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidRecurrenceError(
      'The recurrence must be an object: {"frequency", "interval", "count"}.',
    );
  const { frequency, interval = 1, count } = value as Record<string, unknown>;
  const refuse = (part: string, given: unknown, expected: string) =>
    new InvalidRecurrenceError(
      given === undefined
        ? `The recurrence ${part} is required: ${expected}.`
        : `The recurrence ${part} "${shown(given)}" is invalid: ${expected}.`,
    );
  if (!FREQUENCIES.includes(frequency as Frequency))
    throw refuse('frequency', frequency, `one of ${FREQUENCIES.join(', ')}`);
  if (!isWholeIn(interval, 1, MAX_INTERVAL))
    throw refuse('interval', interval, `a whole number from 1 to ${MAX_INTERVAL}`);
  if (!isWholeIn(count, MIN_COUNT, MAX_COUNT))
    throw refuse('count', count, `a whole number from ${MIN_COUNT} to ${MAX_COUNT}`);
  return { frequency: frequency as Frequency, interval, count };
}

/**
 * A client's series must be one its type offers (`recurrence` of the type: its frequencies, at most
 * `maxCount` occurrences); an admin's need not.
 */
export function assertTypeOffers(
  settings: RecurrenceSettings | null,
  recurrence: Recurrence,
  typeId: number,
): void {
  if (!settings?.frequencies.includes(recurrence.frequency))
    throw new InvalidRecurrenceError(
      `The appointment type "${typeId}" does not offer ${recurrence.frequency} series.`,
    );
  if (recurrence.count > settings.maxCount)
    throw new InvalidRecurrenceError(
      `The appointment type "${typeId}" offers series of at most ${settings.maxCount} occurrences.`,
    );
}

/** One occurrence of a series in its calendar's zone. */
export interface Occurrence {
  /** The local date and time, `YYYY-MM-DDTHH:mm:ss`. */
  local: string;
  /** Epoch milliseconds; null when the zone skips that local time (a DST gap). */
  start: number | null;
}

/**
 * The occurrences of a series whose first starts at `first`, in `zone`: the first one's local date
 * plus `i × interval` days, weeks or months, each at the first one's local time (9:00 stays 9:00
 * across DST changes). A monthly series keeps the day of the month: one reaching a day a month lacks
 * is refused whole (400 `invalid_recurrence`, naming it). A local time the zone skips that day has
 * no start; one it shows twice is the earlier instant (as a booking's datetime is read). Local
 * times are worked out as UTC fields (Date.UTC), each turned into an instant by the zone's offsets.
 */
export function occurrencesOf(first: number, zone: string, recurrence: Recurrence): Occurrence[] {
  const tz = IANAZone.create(zone);
  const firstLocal = new Date(first + offsetOf(tz, first) * 60_000);
  const day = firstLocal.getUTCDate();
  const occurrences: Occurrence[] = [{ local: localText(firstLocal), start: first }];
  for (let i = 1; i < recurrence.count; i++) {
    const step = i * recurrence.interval;
    const local = new Date(firstLocal.getTime());
    if (recurrence.frequency === 'monthly') {
      const month = firstLocal.getUTCMonth() + step;
      local.setUTCFullYear(firstLocal.getUTCFullYear(), month, 1);
      const days = new Date(
        Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 0),
      ).getUTCDate();
      if (day > days)
        throw new InvalidRecurrenceError(
          `The series reaches day ${day} of ${MONTHS[local.getUTCMonth()]} ${local.getUTCFullYear()}, ` +
            `which has ${days} days (occurrence ${i + 1}).`,
        );
      local.setUTCDate(day);
    } else local.setUTCDate(day + step * (recurrence.frequency === 'weekly' ? 7 : 1));
    occurrences.push({ local: localText(local), start: instantOfLocal(tz, local.getTime()) });
  }
  return occurrences;
}

/** `YYYY-MM-DDTHH:mm:ss` of a local time held as UTC fields. */
function localText(local: Date): string {
  return local.toISOString().slice(0, 19);
}
