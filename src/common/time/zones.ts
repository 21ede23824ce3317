import { IANAZone } from 'luxon';

/** Whether `zone` is an IANA zone name this runtime knows (`America/New_York`, `UTC`). */
export function isValidTimezone(zone: unknown): boolean {
  return typeof zone === 'string' && zone.length <= 64 && IANAZone.isValidZone(zone);
}
