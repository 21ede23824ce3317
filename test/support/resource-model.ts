import type { Span } from '../../src/modules/availability/working-time';

/*
 * A model of a resource for tests: the uses counted instant by instant, with none of the service's
 * code, to check its answers and what it stored against.
 */

/** The most uses at any one instant of `window` (what a model of the resource checks against). */
export function mostUsesDuring(uses: Span[], window: Span): number {
  const clipped = uses
    .map((u) => ({ from: Math.max(u.from, window.from), until: Math.min(u.until, window.until) }))
    .filter((u) => u.from < u.until);
  let most = 0;
  for (const u of clipped) {
    const at = u.from;
    const count = clipped.filter((v) => v.from <= at && at < v.until).length;
    most = Math.max(most, count);
  }
  return most;
}
