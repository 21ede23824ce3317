import { IANAZone } from 'luxon';
import { BoundedMap } from '../cache/bounded-map';

/**
 * Zone names found valid (luxon builds an `Intl` formatter each time: ~50 µs); a few hundred at
 * most. Names found invalid are asked again: they could be any string.
 */
const validZones = new BoundedMap<string, true>(2048);

/** Whether `zone` is an IANA zone name this runtime knows (`America/New_York`, `UTC`). */
export function isValidTimezone(zone: unknown): boolean {
  if (typeof zone !== 'string' || zone.length > 64) return false;
  if (validZones.has(zone)) return true;
  if (!IANAZone.isValidZone(zone)) return false;
  validZones.set(zone, true);
  return true;
}

/** Offsets read (an `Intl` formatting each) by zone and instant, which recur; cleared when full. */
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

const DAY_MS = 86_400_000;

/**
 * The instant of a wall-clock time in `zone` (`local`: Date.UTC of its fields): null where a DST
 * change skips it, the earlier instant where one repeats it (as parseDatetime reads a datetime).
 * An instant is one when its own offset takes it to `local`; the offsets a day either side are
 * every offset the zone has near it (no zone changes its offset twice in a day).
 */
export function instantOfLocal(zone: IANAZone, local: number): number | null {
  let earliest: number | null = null;
  for (const offset of new Set([offsetOf(zone, local - DAY_MS), offsetOf(zone, local + DAY_MS)])) {
    const instant = local - offset * 60_000;
    if (offsetOf(zone, instant) === offset && (earliest === null || instant < earliest))
      earliest = instant;
  }
  return earliest;
}
