import type { Span } from './working-time';

/** A resource as availability counts it: its units, and the spans using one each (any order). */
export interface ResourceUse {
  quantity: number;
  uses: Span[];
  /** Whether a live hold is among the uses (its expiry frees a unit, with no write to tell). */
  held?: boolean;
}

/**
 * When every unit of the resource is taken: the instants at which at least `quantity` of `uses`
 * overlap, as sorted disjoint spans. A new use fits exactly when its span meets none of them (it
 * would be one more than the quantity at such an instant, and at no other), so these spans are
 * busy time for every calendar whose type needs the resource: the slot engine needs nothing new.
 * Spans are half-open: a use ending at 10:00 and one starting at 10:00 never overlap.
 */
export function saturatedSpans({ quantity, uses }: ResourceUse): Span[] {
  if (uses.length < quantity) return [];
  // +1 at each start, -1 at each end; at one instant the ends come first (half-open spans).
  const edges: [number, number][] = [];
  for (const use of uses) if (use.from < use.until) edges.push([use.from, 1], [use.until, -1]);
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const saturated: Span[] = [];
  let inUse = 0;
  let since = 0;
  for (const [at, change] of edges) {
    const before = inUse;
    inUse += change;
    if (before < quantity && inUse >= quantity) since = at;
    else if (before >= quantity && inUse < quantity && at > since) {
      const last = saturated[saturated.length - 1];
      if (last && last.until === since) last.until = at;
      else saturated.push({ from: since, until: at });
    }
  }
  return saturated;
}

/** The time some resource of `resources` has no free unit: busy for the type that needs them all. */
export function resourceBusy(resources: ResourceUse[]): Span[] {
  return resources.flatMap(saturatedSpans);
}

/** Each calendar's busy time with `extra` added (the same spans for every calendar). */
export function withExtraBusy(busy: Map<number, Span[]>, extra: Span[]): Map<number, Span[]> {
  if (extra.length === 0) return busy;
  const out = new Map<number, Span[]>();
  for (const [id, spans] of busy) out.set(id, [...spans, ...extra]);
  return out;
}
