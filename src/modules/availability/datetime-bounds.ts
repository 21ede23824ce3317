import { MaxDateBeforeMinDateError } from './availability.errors';
import { nextDate, startOfLocalDate } from './working-time';

/*
 * Moments as the DATETIME columns of blocks and appointments hold them: a far-off typo is refused
 * or bounds nothing, rather than being stored or compared wrong.
 */

/**
 * The real time that a list's `minDate` to `maxDate` (inclusive, local dates in `zone`) covers, for
 * the lists of blocks and of appointments; 400 when they are the wrong way round. A bound that is not
 * storable bounds nothing (it would not compare as a date).
 */
export function localDateBounds(
  zone: string,
  { minDate, maxDate }: { minDate?: string; maxDate?: string },
): { from?: Date; until?: Date } {
  if (minDate && maxDate && maxDate < minDate)
    throw new MaxDateBeforeMinDateError(minDate, maxDate);
  const from = minDate ? new Date(startOfLocalDate(zone, minDate)) : undefined;
  // The last day a DATETIME holds has no next day to end at: it bounds nothing.
  const until =
    maxDate && maxDate < '9999-12-31'
      ? new Date(startOfLocalDate(zone, nextDate(maxDate)))
      : undefined;
  return {
    from: from && storable(from) ? from : undefined,
    until: until && storable(until) ? until : undefined,
  };
}

/** Within the years a DATETIME column holds (1000–9999, UTC). */
export function storable(moment: Date): boolean {
  const year = moment.getUTCFullYear();
  return year >= 1000 && year <= 9999;
}
