/** bench:scale's Galera part (scale-galera.ts): the medians of its rounds, printed and as figures. */
import { type Figure, median } from './lib';

export type Side = '3 nodes' | '1 node';
export type Variant = 'spread' | 'contended';

export interface BookingRound {
  side: Side;
  variant: Variant;
  bookingsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** Transactions run again (all APIs' db_transaction_retries_total) per 2xx booking, %. */
  retryRate: number;
  /** The nodes' certification failures and brute-force aborts per 2xx booking, %. */
  conflictRate: number;
}

export interface GaleraResult {
  figures: Figure[];
  notes: string[];
  ok: boolean;
}

/** What the part ran with. */
export interface GaleraSettings {
  connections: number;
  rounds: number;
  durationS: number;
  warmup: number;
  calendars: number;
  contendedCalendars: number;
}

/** Prints the medians and ratios, and gives them as figures (targets: availability, checks). */
export function report(
  s: GaleraSettings,
  nodes: string[],
  rounds: BookingRound[],
  p50s: Record<string, number[]>,
  checks: { doubleBookings: number; appointments: number }[],
): GaleraResult {
  const of = (variant: Variant, side: Side) =>
    medianRound(rounds.filter((r) => r.variant === variant && r.side === side));
  const singleP50 = median(p50s.single);
  const figures: Figure[] = [];
  console.log(
    `\nbench:scale, Galera — 3 mariadbd nodes, 5 API processes; ${s.connections} connections on 3 APIs ` +
      `per side, ${s.rounds} × ${s.durationS}s per side and variant after ${s.warmup} warm-up bookings`,
  );
  for (const variant of ['spread', 'contended'] as const) {
    const [three, one] = [of(variant, '3 nodes'), of(variant, '1 node')];
    const what =
      variant === 'spread' ? `${s.calendars} calendars` : `${s.contendedCalendars} calendars`;
    console.log(`  ${variant} (${what}), 3 nodes (median): ${describe(three)}`);
    console.log(`  ${variant} (${what}), 1 node  (median): ${describe(one)}`);
    console.log(
      `  3 nodes ÷ 1 node: ${ratio(three.bookingsPerSecond, one.bookingsPerSecond)}× the bookings/s`,
    );
    const pair = (
      label: string,
      unit: string,
      key: 'bookingsPerSecond' | 'p50' | 'p99' | 'retryRate' | 'conflictRate',
    ) =>
      figures.push({
        label: `Galera ${variant} (${what}): ${label}, 3 nodes`,
        value: three[key],
        unit,
        baseline: { label: '1 node', value: one[key] },
      });
    pair('bookings/s', 'bookings/s', 'bookingsPerSecond');
    pair('p50', 'ms', 'p50');
    pair('p99', 'ms', 'p99');
    pair('transactions retried per booking', '%', 'retryRate');
    pair('certification failures and aborts per booking', '%', 'conflictRate');
  }
  const perNode = nodes.map((name) => ({ name, p50: median(p50s[name]) }));
  console.log(
    `  availability/times p50 (median): single server ${singleP50} ms; ` +
      perNode.map((n) => `${n.name} ${n.p50} ms (${ratio(n.p50, singleP50)}×, ≤ 1.5)`).join(', '),
  );
  for (const n of perNode)
    figures.push({
      label: `Galera availability/times p50, node ${n.name}`,
      value: n.p50,
      unit: 'ms',
      baseline: { label: 'single server', value: singleP50 },
      target: { op: '<=', value: singleP50 * 1.5 },
    });
  const doubles = checks.reduce((sum, c) => sum + c.doubleBookings, 0);
  const counts = checks.map((c) => c.appointments);
  const differing = counts.filter((n) => n !== counts[0]).length;
  console.log(
    `  appointments per node ${counts.join(', ')}; double bookings (all nodes) ${doubles}`,
  );
  figures.push(
    {
      label: 'Galera double bookings (all nodes)',
      value: doubles,
      unit: 'count',
      target: { op: '<=', value: 0 },
    },
    {
      label: "Galera nodes whose appointment count differs from g1's",
      value: differing,
      unit: 'count',
      target: { op: '<=', value: 0 },
    },
  );
  const ok = figures.every(
    (f) =>
      !f.target || (f.target.op === '<=' ? f.value <= f.target.value : f.value >= f.target.value),
  );
  return {
    figures,
    notes: [`Galera: ${counts[0]} appointments on each node at the end (${counts.join(', ')})`],
    ok,
  };
}

function medianRound(list: BookingRound[]): BookingRound {
  const keys = ['bookingsPerSecond', 'p50', 'p99', 'non2xx', 'retryRate', 'conflictRate'] as const;
  return { ...list[0], ...Object.fromEntries(keys.map((k) => [k, median(list.map((r) => r[k]))])) };
}

export function describe(r: BookingRound): string {
  return (
    `${r.bookingsPerSecond.toFixed(0)} bookings/s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, non-2xx ${r.non2xx}, ` +
    `retried ${r.retryRate.toFixed(2)}% of bookings, cert failures/aborts ${r.conflictRate.toFixed(2)}%`
  );
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
