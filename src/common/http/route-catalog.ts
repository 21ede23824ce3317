/** Route parameter for a numeric id; `/appointments/abc` then fails to route and gets a suggestion. */
export const NUMERIC = '(^\\d+$)';

type Segment = { kind: 'static'; text: string } | { kind: 'param'; name: string; numeric: boolean };

interface Route {
  readonly template: string;
  readonly segments: Segment[];
  readonly methods: Set<string>;
}

export function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

function parseTemplate(template: string): Segment[] {
  return splitPath(template).map((part): Segment => {
    if (!part.startsWith(':')) return { kind: 'static', text: part };
    const open = part.indexOf('(');
    const name = open < 0 ? part.slice(1) : part.slice(1, open);
    const pattern = open < 0 ? '' : part.slice(open);
    return { kind: 'param', name, numeric: pattern === NUMERIC };
  });
}

/** `/appointments/:id(^\d+$)` → `/appointments/{id:number}`. */
function display(segments: Segment[]): string {
  return (
    '/' +
    segments
      .map((s) => (s.kind === 'static' ? s.text : s.numeric ? `{${s.name}:number}` : `{${s.name}}`))
      .join('/')
  );
}

function segmentMatches(segment: Segment, actual: string): boolean {
  if (segment.kind === 'static') return segment.text === actual;
  return segment.numeric ? /^\d+$/.test(actual) : actual.length > 0;
}

/** Levenshtein distance, small strings only (path segments). */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

/**
 * How far `actual` is from a route, or Infinity when it is too far to be a typo. A static segment may
 * be off by about a third of its letters (singular for plural, a swapped letter); a numeric
 * parameter given a non-number costs a little (`/appointments/abc`).
 */
function typoDistance(segments: Segment[], actual: string[]): number {
  if (segments.length !== actual.length) return Infinity;
  let total = 0;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const given = actual[i];
    if (segment.kind === 'param') {
      if (!segmentMatches(segment, given)) total += 0.5;
      continue;
    }
    const d = editDistance(segment.text.toLowerCase(), given.toLowerCase());
    if (d > Math.max(1, Math.floor(segment.text.length / 3))) return Infinity;
    total += d;
  }
  return total;
}

/**
 * The API's routes as registered with Fastify, to answer requests that match none: 405 with `Allow`
 * when the path exists under another method, else 404 with the probable path (the contract's "Not
 * Found. Did you mean `/appointments/{id:number}`?").
 */
export class RouteCatalog {
  private readonly routes = new Map<string, Route>();

  constructor(private readonly prefix: string) {}

  /** Records a route as Fastify registers it (the `onRoute` hook). */
  add(method: string | string[], url: string): void {
    if (!url.startsWith(this.prefix)) return;
    const template = url.slice(this.prefix.length) || '/';
    let route = this.routes.get(template);
    if (!route) {
      route = { template, segments: parseTemplate(template), methods: new Set() };
      this.routes.set(template, route);
    }
    for (const m of Array.isArray(method) ? method : [method]) route.methods.add(m.toUpperCase());
  }

  /** Every route as registered (`/calendars/:id(^\\d+$)`, prefix left out) with its methods. */
  list(): { template: string; methods: string[] }[] {
    return [...this.routes.values()].map((r) => ({
      template: r.template,
      methods: [...r.methods],
    }));
  }

  /** Methods served at this path (a concrete path, prefix included), sorted; empty if none. */
  allowedMethods(path: string): string[] {
    const relative = this.relative(path);
    if (relative === undefined) return [];
    const actual = splitPath(relative);
    const methods = new Set<string>();
    for (const route of this.routes.values()) {
      if (
        route.segments.length === actual.length &&
        route.segments.every((s, i) => segmentMatches(s, actual[i]))
      ) {
        route.methods.forEach((m) => methods.add(m));
      }
    }
    return [...methods].sort();
  }

  /** The probable route for a path that matched none, as shown to clients, or undefined. */
  suggest(path: string): string | undefined {
    const relative = this.relative(path);
    if (relative === undefined) return undefined;
    const actual = splitPath(relative);
    let best: { route: Route; distance: number } | undefined;
    for (const route of this.routes.values()) {
      const distance = typoDistance(route.segments, actual);
      if (distance === Infinity) continue;
      if (!best || distance < best.distance) best = { route, distance };
    }
    return best && best.distance > 0 ? display(best.route.segments) : undefined;
  }

  private relative(path: string): string | undefined {
    const clean = path.split('?')[0];
    return clean.startsWith(this.prefix) ? clean.slice(this.prefix.length) || '/' : undefined;
  }
}
