import { IANAZone } from 'luxon';

/** Whether `zone` is an IANA zone name this runtime knows (`America/New_York`, `UTC`). */
export function isValidTimezone(zone: unknown): boolean {
  return typeof zone === 'string' && zone.length <= 64 && IANAZone.isValidZone(zone);
}

/**
 * Offsets already read, by zone and instant. A zone answers through an `Intl` formatting (costly),
 * and the same instants come back request after request (a month's day boundaries, the quarter
 * hours of momentInZone). Bounded: cleared when full.
 */
const offsetCache = new Map<string, number>();
const OFFSET_CACHE_SIZE = 100_000;

/** The zone's offset at `instant` (minutes east of UTC), cached. */
export function offsetOf(zone: IANAZone, instant: number): number {
  const key = `${zone.name}@${instant}`;
  let offset = offsetCache.get(key);
  if (offset === undefined) {
    offset = zone.offset(instant);
    if (offsetCache.size >= OFFSET_CACHE_SIZE) offsetCache.clear();
    offsetCache.set(key, offset);
  }
  return offset;
}
