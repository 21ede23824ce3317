/**
 * bench:booking — client bookings (POST /api/v1/appointments, availability checked) through the
 * built service (dist/main.js, production settings, request logs on), next to a bare node:http +
 * mysql2 server (bench/bare-booking-server.ts) doing the same transaction for the same bodies, in
 * the same run, both loaded by autocannon from this (separate) process with 20 connections.
 *
 * Each side has its own account (same database) with 100 New York calendars open every day
 * 00:00–24:00 and one 15-minute type linked to all of them (maxDaysInAdvance 3650, no minimum
 * notice). Every request books a distinct (calendar, start), for a client of its own: a counter
 * walks the calendars first, then the days from 30 days ahead on, then the 15-minute slots of a
 * day, so that concurrent requests lock different calendars, nearly all answer 200, and each
 * calendar's days fill evenly (the same busy time to read on both sides). The service has no rate
 * limits yet: nothing throttles this.
 *
 * Both servers are warmed up first, then measured in alternating rounds (service, bare). Figures per
 * round and medians: bookings/s (2xx only), p50/p99, CPU per booking of the server process and of
 * MariaDB, non-2xx answers (reported, not hidden). Targets: the service books at least 40% of the
 * bare server's bookings/s, and its p99 is under 50 ms.
 *
 * "hold then book" (issue 23): a third side on the same service process, with an account of its own
 * set up the same way, where each connection holds a distinct slot (POST /api/v1/slot-holds) and then
 * books it with the hold's token (POST /api/v1/appointments `holdToken`). Measured in the same
 * rounds, after bare; its figure is holds + bookings per second (2xx answers of either), against
 * the bare server's bookings/s of the same round. Target: at least 40%.
 *
 * "series": a side on the same service process, with an account of its own set up the same way (its
 * type offering weekly series), where each request books a weekly series of 12
 * (POST /api/v1/appointment-series) at a distinct (calendar, weekday, local time). Measured in the
 * same rounds, after "hold then book"; its figure is the service's CPU per series over its CPU per
 * single booking of the same round. Target: at most 4× (a series is 12 occurrences checked and
 * written in one transaction, not 12 bookings).
 *
 * "resources" (issue 39): a side on the same service process, with an account of its own set up
 * the same way, whose type needs one resource (a room all 100 calendars share, of quantity 1000:
 * never full here, so every booking locks it, reads its uses and is granted); its requests walk the
 * calendars and the days together (distinctSlots' `daysApart`), so that concurrent bookings of the
 * room are of different days, as a business's mostly are: bookings of one room that touch one day
 * wait for each other (docs/resources.md). Its baseline, "apart", is one more side set up and
 * walked the same way but for the resource: walking the days apart, each booking inserts its
 * appointment rows far from the last one's in the indexes by start, which costs MariaDB more than
 * the service side's walk (all calendars of a day first) whatever the resource. The two are
 * measured back to back in each round, right after the service, taking turns going first; the
 * figure is bookings/s with the resource over without, per round. Target: at least 85%.
 *
 * "first" and "round-robin" (issue 40): two sides on the same service process, each with an account
 * of its own set up the same way and then split into 20 teams of 5 calendars, one type per team;
 * their bookings name no calendar, so each locks its team's 5 calendars and the type's assignment
 * picks one: the lowest free id ("first"), or the next in the rotation ("round-robin", which also
 * reads and writes the team's turns). Both walk the same way: the teams in turn, each start taken
 * by all 5 calendars before the next. Measured back to back in each round, taking turns going
 * first; the figure is round-robin's bookings/s over first's, per round. Target: at least 85%.
 *
 * A/B: with `BENCH_AB_DIST` (another build's dist/, e.g. of an earlier commit, or of this one with a
 * mechanism taken out), a fourth side books through that build's API process (same database, same
 * core, an account of its own set up the same way), measured in each round right after the service;
 * the run prints the variant's bookings/s, CPU and MariaDB CPU per booking over the service's, per
 * round and as medians. `BENCH_AB_ENV` ("NAME=value …") adds settings to the variant's process.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { DateTime } from 'luxon';
import { type RowDataPacket, createConnection } from 'mysql2/promise';
import { DAY, MINUTE } from '../src/common/time/durations';
import {
  DIST,
  benchEnv,
  cli,
  cpuTimeMs,
  load,
  loadServer,
  machine,
  median,
  pinCpus,
  profiled,
  startProcess,
  stopProcess,
  benchApi,
  createOpenCalendars,
  distinctSlots,
  dropQueueKeys,
  writeResult,
} from './lib';

const CONNECTIONS = 20;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_REQUESTS = Number(process.env.BENCH_WARMUP ?? 3_000);
const KEEP_ROWS = process.env.BENCH_KEEP === '1';
const CALENDARS = 100;
const SLOT_MINUTES = 15;
const FIRST_DAY_AHEAD = 30;
const MAX_DAYS_IN_ADVANCE = 3650;
const ZONE = 'America/New_York';
/** Issue 29 (40% before it): the service's bookings/s at least 60% of the bare server's. */
const TARGET_RATIO = 0.6;
/** Issue 29: MariaDB's CPU per booking at most 1.2× what it spends for the bare server's. */
const TARGET_DB_RATIO = 1.2;
/** Issue 23: hold then book at least 40% of the bare server's bookings/s. */
const TARGET_HOLD_RATIO = 0.4;
const TARGET_P99_MS = 50;
/** A series of 12 costs at most 4× one booking's CPU. */
const SERIES_COUNT = 12;
const TARGET_SERIES_CPU_RATIO = 4;
const SERIES_WARMUP = Math.ceil(WARMUP_REQUESTS / 10);
/** Issue 39: a type needing a resource books at least 85% of the bookings/s of one needing none. */
const TARGET_RESOURCE_RATIO = 0.85;
const RESOURCE_QUANTITY = 1000;
/**
 * The days-apart sides' warm-up: past every day their walk visits (distinctSlots: the days from
 * FIRST_DAY_AHEAD to MAX_DAYS_IN_ADVANCE), so that each day of the room has its row, as a room
 * booked every day has (a day's first booking writes it: docs/resources.md).
 */
/** Issue 40: a round-robin type books at least 85% of the bookings/s of a `first` type. */
const TARGET_ROUND_ROBIN_RATIO = 0.85;
const TEAMS = 20;
const TEAM_SIZE = 5;
const APART_WARMUP = Math.max(WARMUP_REQUESTS, MAX_DAYS_IN_ADVANCE - FIRST_DAY_AHEAD);

function warmupOf(side: Side): number {
  if (side.name === 'series') return SERIES_WARMUP;
  return side.name === 'resources' || side.name === 'apart' ? APART_WARMUP : WARMUP_REQUESTS;
}

/** Share of the machine other processes may use in a round before the figures are flagged. */
const NOISY_SHARE = 0.1;
const API_PORT = 3903;
const BARE_PORT = 3904;
const VARIANT_PORT = 3905;
/** The variant build of an A/B run (see the header), if any. */
const VARIANT_DIST = process.env.BENCH_AB_DIST;
const VARIANT_ENV = Object.fromEntries(
  (process.env.BENCH_AB_ENV ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
/** With BENCH_PROFILE_DIR: the service's and the bare server's inspectors, to profile round 1. */
const INSPECT_PORT = 4903;
const BARE_INSPECT_PORT = 4904;
/** Its own Bull prefix: the jobs the bookings enqueue (no worker consumes them) are dropped after. */
const QUEUE_PREFIX = 'bench-booking';

interface Side {
  name:
    | 'service'
    | 'bare'
    | 'holds'
    | 'series'
    | 'resources'
    | 'apart'
    | 'first'
    | 'roundRobin'
    | 'variant';
  accountId: number;
  typeId: number;
  calendarIds: number[];
  headers: Record<string, string>;
  url: string;
  /** Next booking body: a (calendar, start) pair never asked for before in this run. */
  next: () => string;
}

interface Round {
  bookingsPerSecond: number;
  p50: number;
  p99: number;
  cpuUs: number | undefined;
  dbCpuUs: number | undefined;
  requests: number;
  non2xx: number;
  errors: number;
  /** Share of the machine's CPU used by processes other than the server, MariaDB, Redis and us. */
  others: number | undefined;
  /** Share of the machine's CPU time the hypervisor gave to other guests. */
  steal: number | undefined;
}

/** Answers other than 2xx, by status, with the first body seen for each: what went wrong. */
type Failures = Map<number, { count: number; body: string }>;
const failures: Record<Side['name'], Failures> = {
  service: new Map(),
  bare: new Map(),
  holds: new Map(),
  series: new Map(),
  resources: new Map(),
  apart: new Map(),
  first: new Map(),
  roundRobin: new Map(),
  variant: new Map(),
};
/** 2xx bookings per side over the whole run (warm-up included): each must be one appointment row. */
const booked = {
  service: 0,
  bare: 0,
  holds: 0,
  series: 0,
  resources: 0,
  apart: 0,
  first: 0,
  roundRobin: 0,
  variant: 0,
};
/** 2xx holds of the "hold then book" side over the whole run. */
let held = 0;

async function main(): Promise<void> {
  const cpu = pinCpus();
  const env = benchEnv({ PORT: String(API_PORT), QUEUE_PREFIX });
  await dropQueueKeys(env, QUEUE_PREFIX);
  const names: Side['name'][] = [
    'service',
    'bare',
    'holds',
    'series',
    'resources',
    'apart',
    'first',
    'roundRobin',
    ...(VARIANT_DIST ? ['variant' as const] : []),
  ];
  const accounts = names.map((name) =>
    cli<{ id: number; apiKey: string }>(
      [
        'account:create',
        '--email',
        `bench-booking-${name}-${Date.now()}@example.test`,
        '--name',
        `Bench booking ${name}`,
        '--timezone',
        ZONE,
      ],
      env,
    ),
  );
  const api = await startProcess(
    join(DIST, 'main.js'),
    env,
    `http://127.0.0.1:${API_PORT}/health/live`,
    cpu.server,
    INSPECT_PORT,
  );
  let bare: Awaited<ReturnType<typeof startProcess>> | undefined;
  const variantApi = VARIANT_DIST
    ? await startProcess(
        join(VARIANT_DIST, 'main.js'),
        { ...env, ...VARIANT_ENV, PORT: String(VARIANT_PORT) },
        `http://127.0.0.1:${VARIANT_PORT}/health/live`,
        cpu.server,
      )
    : undefined;
  const variant: Round[] = [];
  /** Variant ÷ service per round: bookings/s, CPU per booking, MariaDB CPU per booking. */
  const variantRatios: { rate: number; cpu?: number; db?: number }[] = [];
  const dbPid = pidOf('mariadbd') ?? pidOf('mysqld');
  const redisPid = pidOf('redis-server');
  const loadBefore = loadavg();
  const service: Round[] = [];
  const baseline: Round[] = [];
  const holding: Round[] = [];
  const ratios: number[] = [];
  const holdRatios: number[] = [];
  const seriesRounds: Round[] = [];
  /** CPU per series ÷ CPU per booking of the service, per round. */
  const seriesCpuRatios: number[] = [];
  const resourceRounds: Round[] = [];
  const apartRounds: Round[] = [];
  /** Bookings/s of the type with a resource ÷ the same walk's without one, per round. */
  const resourceRatios: number[] = [];
  const firstRounds: Round[] = [];
  const roundRobinRounds: Round[] = [];
  /** Bookings/s of a round-robin type ÷ a `first` type's (both naming no calendar), per round. */
  const roundRobinRatios: number[] = [];
  /** MariaDB's CPU per booking, service ÷ bare, per round. */
  const dbRatios: number[] = [];
  let sides: Side[] = [];
  try {
    sides = await Promise.all(
      names.map((name, i) =>
        setUp(
          name,
          accounts[i],
          {
            bare: BARE_PORT,
            variant: VARIANT_PORT,
            service: API_PORT,
            holds: API_PORT,
            series: API_PORT,
            resources: API_PORT,
            apart: API_PORT,
            first: API_PORT,
            roundRobin: API_PORT,
          }[name],
        ),
      ),
    );
    bare = await startProcess(
      join(__dirname, 'bare-booking-server.ts'),
      {
        ...process.env,
        DB_NAME: env.DB_NAME,
        BARE_PORT: String(BARE_PORT),
        BARE_DURATION_MINUTES: String(SLOT_MINUTES),
        NODE_OPTIONS: '-r ts-node/register/transpile-only',
      },
      `http://127.0.0.1:${BARE_PORT}/health`,
      cpu.server,
      BARE_INSPECT_PORT,
    );
    // One booking each by hand: both must answer 200 before anything is measured.
    for (const side of sides.filter((s) => s.name !== 'holds')) {
      const res = await fetch(side.url, {
        method: 'POST',
        headers: side.headers,
        body: side.next(),
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${side.name}: first booking ${res.status} ${text}`);
      booked[side.name]++;
    }

    for (const side of sides) await load(options(side, { amount: warmupOf(side) }));
    const [s, b, h, x, r, a, f, rb, v] = sides;
    for (let round = 1; round <= ROUNDS; round++) {
      const first = round === 1;
      const sr = await profiled(first ? INSPECT_PORT : undefined, 'booking-service', () =>
        measure(api.pid, dbPid, redisPid, s),
      );
      // With and without the resource back to back, in turns first (the machine drifts).
      const withResource = () =>
        profiled(first ? INSPECT_PORT : undefined, 'booking-resources', () =>
          measure(api.pid, dbPid, redisPid, r),
        );
      const without = () => measure(api.pid, dbPid, redisPid, a);
      const ar = round % 2 === 1 ? await without() : undefined;
      const rr = await withResource();
      const apartRound = ar ?? (await without());
      resourceRounds.push(rr);
      apartRounds.push(apartRound);
      resourceRatios.push(rr.bookingsPerSecond / apartRound.bookingsPerSecond);
      // Round-robin and first back to back, in turns first.
      const fr = round % 2 === 0 ? await measure(api.pid, dbPid, redisPid, f) : undefined;
      const rbr = await measure(api.pid, dbPid, redisPid, rb);
      const firstRound = fr ?? (await measure(api.pid, dbPid, redisPid, f));
      firstRounds.push(firstRound);
      roundRobinRounds.push(rbr);
      roundRobinRatios.push(rbr.bookingsPerSecond / firstRound.bookingsPerSecond);
      const br = await profiled(first ? BARE_INSPECT_PORT : undefined, 'booking-bare', () =>
        measure(bare!.pid, dbPid, redisPid, b),
      );
      const vr = v && (await measure(variantApi?.pid, dbPid, redisPid, v));
      const hr = await measure(api.pid, dbPid, redisPid, h);
      const xr = await profiled(first ? INSPECT_PORT : undefined, 'booking-series', () =>
        measure(api.pid, dbPid, redisPid, x),
      );
      seriesRounds.push(xr);
      if (xr.cpuUs !== undefined && sr.cpuUs) seriesCpuRatios.push(xr.cpuUs / sr.cpuUs);
      if (vr) {
        variant.push(vr);
        variantRatios.push({
          rate: vr.bookingsPerSecond / sr.bookingsPerSecond,
          cpu: vr.cpuUs !== undefined && sr.cpuUs ? vr.cpuUs / sr.cpuUs : undefined,
          db: vr.dbCpuUs !== undefined && sr.dbCpuUs ? vr.dbCpuUs / sr.dbCpuUs : undefined,
        });
        console.log(
          `         variant (${VARIANT_DIST}): ${describe(vr)} | ÷ service: ${describeVariant(variantRatios[variantRatios.length - 1])}`,
        );
      }
      service.push(sr);
      baseline.push(br);
      holding.push(hr);
      ratios.push(sr.bookingsPerSecond / br.bookingsPerSecond);
      if (sr.dbCpuUs !== undefined && br.dbCpuUs !== undefined)
        dbRatios.push(sr.dbCpuUs / br.dbCpuUs);
      holdRatios.push(hr.bookingsPerSecond / br.bookingsPerSecond);
      console.log(
        `round ${round}: service ${describe(sr)} | bare ${describe(br)} | ratio ${ratios[ratios.length - 1].toFixed(3)} | others ${percent(sr.others)}/${percent(br.others)}, steal ${percent(sr.steal)}/${percent(br.steal)}`,
      );
      console.log(
        `         hold then book: ${describe(hr, 'holds+bookings')} | ratio to bare ${holdRatios[holdRatios.length - 1].toFixed(3)} | others ${percent(hr.others)}`,
      );
      console.log(
        `         series of ${SERIES_COUNT}: ${describe(xr, 'series')} | CPU ÷ one booking's ${seriesCpuRatios.at(-1)?.toFixed(2) ?? 'n/a'}× | others ${percent(xr.others)}`,
      );
      console.log(
        `         a resource: ${describe(rr)} | ÷ without ${resourceRatios.at(-1)?.toFixed(3)} | others ${percent(rr.others)}`,
      );
      console.log(
        `         the same walk, no resource: ${describe(apartRound)} | others ${percent(apartRound.others)}`,
      );
      console.log(
        `         round-robin teams: ${describe(rbr)} | ÷ first ${roundRobinRatios.at(-1)?.toFixed(3)} | first teams: ${describe(firstRound)}`,
      );
    }
  } finally {
    await stopProcess(api);
    if (bare) await stopProcess(bare);
    if (variantApi) await stopProcess(variantApi);
  }
  const rows = await checkRows(env, sides);
  await dropQueueKeys(env, QUEUE_PREFIX);

  const ratio = median(ratios);
  const holdRatio = median(holdRatios);
  const s = medianOf(service);
  const b = medianOf(baseline);
  const h = medianOf(holding);
  const x = medianOf(seriesRounds);
  const seriesRatio = seriesCpuRatios.length > 0 ? median(seriesCpuRatios) : undefined;
  const rs = medianOf(resourceRounds);
  const ap = medianOf(apartRounds);
  const resourceRatio = median(resourceRatios);
  const fm = medianOf(firstRounds);
  const rbm = medianOf(roundRobinRounds);
  const roundRobinRatio = median(roundRobinRatios);
  console.log(
    `\nbench:booking — POST /api/v1/appointments, ${CONNECTIONS} connections over ${CALENDARS} calendars, ${ROUNDS} × ${DURATION_S}s after ${WARMUP_REQUESTS} warm-up bookings each`,
  );
  console.log(`  ${machine()}; ${cpu.describe}; MariaDB and Redis unpinned`);
  console.log(
    `  load average at start ${loadBefore.map((l) => l.toFixed(2)).join(' ')}; other processes used ${percent(median(defined(service.map((r) => r.others))))} (service rounds) / ${percent(median(defined(baseline.map((r) => r.others))))} (bare rounds) of the machine's CPU, hypervisor steal ${percent(median(defined(service.map((r) => r.steal))))} / ${percent(median(defined(baseline.map((r) => r.steal))))} (medians)`,
  );
  const busiest = Math.max(...defined([...service, ...baseline].map((r) => r.others)));
  if (busiest > NOISY_SHARE)
    console.log(
      `  WARNING: other processes used up to ${percent(busiest)} of the machine in a round (they share the server's core): that round's figures are low, compare quiet rounds`,
    );
  console.log(
    `  each request a distinct (calendar, start): ${CALENDARS} calendars (${ZONE}, open 00:00–24:00 daily) × ${SLOT_MINUTES}-min slots from ${FIRST_DAY_AHEAD} days ahead; no rate limits exist in the service`,
  );
  console.log(`  service (LOG_LEVEL=${env.LOG_LEVEL}): median ${describe(s)}`);
  console.log(`  bare node:http + mysql2:  median ${describe(b)}`);
  console.log(`  hold then book (service): median ${describe(h, 'holds+bookings')}`);
  console.log(`  series of ${SERIES_COUNT} (service): median ${describe(x, 'series')}`);
  console.log(`  a type with a resource (service): median ${describe(rs)}`);
  console.log(`  the same walk, no resource (service): median ${describe(ap)}`);
  console.log(`  teams of ${TEAM_SIZE}, round-robin (service): median ${describe(rbm)}`);
  console.log(`  teams of ${TEAM_SIZE}, first (service): median ${describe(fm)}`);
  const medianRatio = (key: 'rate' | 'cpu' | 'db'): number | undefined => {
    const values = defined(variantRatios.map((r) => r[key]));
    return values.length > 0 ? median(values) : undefined;
  };
  if (variant.length > 0) {
    console.log(`  variant (${VARIANT_DIST}): median ${describe(medianOf(variant))}`);
    console.log(
      `  A/B, variant ÷ service (medians of rounds): ${describeVariant({ rate: medianRatio('rate'), cpu: medianRatio('cpu'), db: medianRatio('db') })}`,
    );
  }
  console.log(
    `  non-2xx: service ${sum(service, 'non2xx')} of ${sum(service, 'requests')}, bare ${sum(baseline, 'non2xx')} of ${sum(baseline, 'requests')} (measured rounds); errors/timeouts: service ${sum(service, 'errors')}, bare ${sum(baseline, 'errors')}`,
  );
  for (const side of names)
    for (const [status, { count, body }] of failures[side])
      console.log(`    ${side} ${status} × ${count} (whole run), e.g. ${body.slice(0, 300)}`);
  console.log(`  ${rows}`);
  console.log(
    `  ratio (median of rounds): ${(ratio * 100).toFixed(1)}% of bare's bookings/s (target ≥ ${TARGET_RATIO * 100}%) → ${ratio >= TARGET_RATIO ? 'MET' : 'NOT MET'}`,
  );
  console.log(
    `  service p99 (median of rounds): ${s.p99} ms (target < ${TARGET_P99_MS} ms) → ${s.p99 < TARGET_P99_MS ? 'MET' : 'NOT MET'}`,
  );
  console.log(
    `  hold then book (median of rounds): ${(holdRatio * 100).toFixed(1)}% of bare's bookings/s in holds + bookings/s (target ≥ ${TARGET_HOLD_RATIO * 100}%) → ${holdRatio >= TARGET_HOLD_RATIO ? 'MET' : 'NOT MET'}`,
  );
  if (seriesRatio !== undefined)
    console.log(
      `  series of ${SERIES_COUNT} (median of rounds): ${seriesRatio.toFixed(2)}× one booking's CPU (target ≤ ${TARGET_SERIES_CPU_RATIO}×) → ${seriesRatio <= TARGET_SERIES_CPU_RATIO ? 'MET' : 'NOT MET'}`,
    );
  console.log(
    `  a type with a resource (median of rounds): ${(resourceRatio * 100).toFixed(1)}% of the bookings/s without (target ≥ ${TARGET_RESOURCE_RATIO * 100}%) → ${resourceRatio >= TARGET_RESOURCE_RATIO ? 'MET' : 'NOT MET'}`,
  );
  console.log(
    `  a round-robin type (median of rounds): ${(roundRobinRatio * 100).toFixed(1)}% of a first type's bookings/s (target ≥ ${TARGET_ROUND_ROBIN_RATIO * 100}%) → ${roundRobinRatio >= TARGET_ROUND_ROBIN_RATIO ? 'MET' : 'NOT MET'}`,
  );
  const dbRatio = dbRatios.length > 0 ? median(dbRatios) : undefined;
  if (dbRatio !== undefined)
    console.log(
      `  MariaDB CPU per booking (median of rounds): ${dbRatio.toFixed(2)}× the bare server's (target ≤ ${TARGET_DB_RATIO}×) → ${dbRatio <= TARGET_DB_RATIO ? 'MET' : 'NOT MET'}`,
    );
  writeResult({
    bench: 'booking',
    title: 'Client bookings (POST /api/v1/appointments) vs a bare node:http + mysql2 server',
    settings: {
      connections: CONNECTIONS,
      rounds: ROUNDS,
      durationS: DURATION_S,
      warmup: WARMUP_REQUESTS,
    },
    figures: [
      {
        label: 'service bookings/s',
        value: s.bookingsPerSecond,
        unit: 'bookings/s',
        baseline: { label: 'bare', value: b.bookingsPerSecond },
      },
      {
        label: 'service / bare (median of rounds)',
        value: ratio * 100,
        unit: '%',
        target: { op: '>=', value: TARGET_RATIO * 100 },
      },
      { label: 'service p50', value: s.p50, unit: 'ms', baseline: { label: 'bare', value: b.p50 } },
      {
        label: 'service p99',
        value: s.p99,
        unit: 'ms',
        baseline: { label: 'bare', value: b.p99 },
        target: { op: '<=', value: TARGET_P99_MS },
      },
      {
        label: 'hold then book: holds + bookings/s',
        value: h.bookingsPerSecond,
        unit: 'requests/s',
        baseline: { label: 'bare bookings/s', value: b.bookingsPerSecond },
      },
      {
        label: 'hold then book / bare (median of rounds)',
        value: holdRatio * 100,
        unit: '%',
        target: { op: '>=', value: TARGET_HOLD_RATIO * 100 },
      },
      {
        label: `series of ${SERIES_COUNT}/s`,
        value: x.bookingsPerSecond,
        unit: 'series/s',
      },
      {
        label: 'a type with a resource: bookings/s',
        value: rs.bookingsPerSecond,
        unit: 'bookings/s',
        baseline: { label: 'without (the same walk)', value: ap.bookingsPerSecond },
      },
      {
        label: 'a type with a resource ÷ without, bookings/s (median of rounds)',
        value: Number((resourceRatio * 100).toFixed(1)),
        unit: '%',
        target: { op: '>=', value: TARGET_RESOURCE_RATIO * 100 },
      },
      {
        label: 'a round-robin type: bookings/s (no calendar named)',
        value: rbm.bookingsPerSecond,
        unit: 'bookings/s',
        baseline: { label: 'a first type', value: fm.bookingsPerSecond },
      },
      {
        label: 'a round-robin type ÷ a first type, bookings/s (median of rounds)',
        value: Number((roundRobinRatio * 100).toFixed(1)),
        unit: '%',
        target: { op: '>=', value: TARGET_ROUND_ROBIN_RATIO * 100 },
      },
      ...(seriesRatio === undefined
        ? []
        : [
            {
              label: `series of ${SERIES_COUNT}: CPU ÷ one booking's (median of rounds)`,
              value: Number(seriesRatio.toFixed(2)),
              unit: '×',
              target: { op: '<=' as const, value: TARGET_SERIES_CPU_RATIO },
            },
          ]),
      ...(dbRatio === undefined
        ? []
        : [
            {
              label: 'MariaDB CPU per booking, service ÷ bare (median of rounds)',
              value: Number(dbRatio.toFixed(2)),
              unit: '×',
              target: { op: '<=' as const, value: TARGET_DB_RATIO },
            },
          ]),
      ...(s.cpuUs === undefined
        ? []
        : [
            {
              label: 'service CPU per booking',
              value: s.cpuUs,
              unit: 'µs',
              ...(b.cpuUs === undefined ? {} : { baseline: { label: 'bare', value: b.cpuUs } }),
            },
          ]),
      // An A/B run's variant over the service (BENCH_AB_DIST): with BENCH_RUNS=3 the report gives
      // each the median of the runs' medians, with every run's value.
      ...(['rate', 'cpu', 'db'] as const).flatMap((key) => {
        const value = medianRatio(key);
        return value === undefined
          ? []
          : [
              {
                label: `A/B variant ÷ service, ${{ rate: 'bookings/s', cpu: 'CPU per booking', db: 'MariaDB CPU per booking' }[key]} (median of rounds)`,
                value: Number(value.toFixed(3)),
                unit: '×',
              },
            ];
      }),
    ],
    notes: [
      rows,
      ...(VARIANT_DIST ? [`A/B variant: ${VARIANT_DIST} ${process.env.BENCH_AB_ENV ?? ''}`] : []),
    ],
  });
}

/** 100 calendars open all week, one 15-minute type on all of them; created through the API. */
async function setUp(
  name: Side['name'],
  account: { id: number; apiKey: string },
  port: number,
): Promise<Side> {
  const api = benchApi(API_PORT, account);
  const { headers } = api;
  const { calendarIds, typeId } = await createOpenCalendars(api, {
    calendars: CALENDARS,
    minutes: SLOT_MINUTES,
    zone: ZONE,
  });
  const { path, next } = await requestsOf(name, api, calendarIds, typeId);
  return {
    name,
    accountId: account.id,
    typeId,
    calendarIds,
    headers,
    url: `http://127.0.0.1:${port}/api/v1/${path}`,
    next,
  };
}

/** What a side posts, and where: its type set up for it first (recurrence, a resource, teams). */
async function requestsOf(
  name: Side['name'],
  api: ReturnType<typeof benchApi>,
  calendarIds: number[],
  typeId: number,
): Promise<{ path: string; next: () => string }> {
  if (name === 'series') {
    await api.put(`/appointment-types/${typeId}`, {
      recurrence: { frequencies: ['weekly'], maxCount: SERIES_COUNT },
    });
    return { path: 'appointment-series', next: seriesSlots(calendarIds, typeId) };
  }
  if (name === 'first' || name === 'roundRobin') {
    const teams: number[] = [];
    for (let t = 0; t < TEAMS; t++)
      teams.push(
        (
          await api.post('/appointment-types', {
            name: `Team ${t + 1}`,
            duration: SLOT_MINUTES,
            calendarIDs: calendarIds.slice(t * TEAM_SIZE, (t + 1) * TEAM_SIZE),
            minHoursInAdvance: 0,
            maxDaysInAdvance: MAX_DAYS_IN_ADVANCE,
            assignment: name === 'first' ? 'first' : 'round-robin',
          })
        ).id,
      );
    return { path: 'appointments', next: teamSlots(teams) };
  }
  if (name === 'resources')
    await api.post('/resources', {
      name: 'Shared room',
      quantity: RESOURCE_QUANTITY,
      appointmentTypeIDs: [typeId],
    });
  // Calendars first, then days, then the time of day: a calendar gets one booking a day per pass
  // over the days, so the overlap read (the 3 days before a start, by the index) finds the same
  // few rows for both servers however many bookings each makes.
  const next = distinctSlots({
    calendarIds,
    typeId,
    slotMinutes: SLOT_MINUTES,
    firstDayAhead: FIRST_DAY_AHEAD,
    maxDaysInAdvance: MAX_DAYS_IN_ADVANCE,
    daysApart: name === 'resources' || name === 'apart',
  });
  return { path: 'appointments', next };
}

/**
 * Bookings naming no calendar: the teams in turn, each team's starts taken by all its calendars
 * (TEAM_SIZE bookings) before the next 15-minute start, from FIRST_DAY_AHEAD days ahead on.
 */
function teamSlots(typeIds: number[]): () => string {
  const firstDay = Math.floor(Date.now() / DAY) * DAY + FIRST_DAY_AHEAD * DAY;
  let counter = 0;
  return () => {
    const i = counter++;
    const slot = Math.floor(i / (typeIds.length * TEAM_SIZE));
    if (slot * SLOT_MINUTES > (MAX_DAYS_IN_ADVANCE - FIRST_DAY_AHEAD - 2) * 1440)
      throw new Error('out of slots: fewer bookings or more teams');
    return JSON.stringify({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: `ada.lovelace+${i}@example.test`,
      appointmentTypeID: typeIds[i % typeIds.length],
      datetime: new Date(firstDay + slot * SLOT_MINUTES * MINUTE)
        .toISOString()
        .replace('.000Z', 'Z'),
    });
  };
}

/** The series side's first local time of day: clear of the hours DST changes skip or repeat. */
const SERIES_FIRST_HOUR = 4;
const SERIES_SLOTS = ((24 - SERIES_FIRST_HOUR) * 60) / SLOT_MINUTES;

/**
 * Weekly series of 12 never overlapping one another: calendars first, then the 7 weekdays of the
 * first week, then the 15-minute local times from 04:00 (each series keeps its wall-clock time, so
 * two series of one calendar and weekday differ by their time of day in every week).
 */
function seriesSlots(calendarIds: number[], typeId: number): () => string {
  const first = DateTime.now().setZone(ZONE).startOf('day').plus({ days: FIRST_DAY_AHEAD });
  let counter = 0;
  return () => {
    const i = counter++;
    const day = Math.floor(i / calendarIds.length) % 7;
    const slot = Math.floor(i / (calendarIds.length * 7));
    if (slot >= SERIES_SLOTS)
      throw new Error('out of series slots: fewer series or more calendars');
    const start = first.plus({ days: day, minutes: SERIES_FIRST_HOUR * 60 + slot * SLOT_MINUTES });
    return JSON.stringify({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: `grace.hopper+${i}@example.test`,
      appointmentTypeID: typeId,
      calendarID: calendarIds[i % calendarIds.length],
      datetime: start.toFormat("yyyy-MM-dd'T'HH:mm"),
      recurrence: { frequency: 'weekly', count: SERIES_COUNT },
    });
  };
}

function options(side: Side, limit: { duration: number } | { amount: number }): autocannon.Options {
  const tally = failures[side.name];
  const refused = (status: number, body: string) => {
    const seen = tally.get(status);
    if (seen) seen.count++;
    else tally.set(status, { count: 1, body: String(body) });
  };
  if (side.name === 'holds') return holdThenBook(side, limit, refused);
  return {
    url: side.url,
    connections: CONNECTIONS,
    ...limit,
    requests: [
      {
        method: 'POST',
        path: new URL(side.url).pathname,
        headers: side.headers,
        setupRequest: (request) => ({ ...request, body: side.next() }),
        onResponse: (status, body) => {
          if (status >= 200 && status < 300) {
            booked[side.name]++;
            return;
          }
          const seen = tally.get(status);
          if (seen) seen.count++;
          else tally.set(status, { count: 1, body: String(body) });
        },
      },
    ],
  };
}

/** Each connection holds a distinct slot, then books it with the hold's token; 2xx of both count. */
function holdThenBook(
  side: Side,
  limit: { duration: number } | { amount: number },
  refused: (status: number, body: string) => void,
): autocannon.Options {
  type Context = { booking?: Record<string, unknown>; token?: string };
  return {
    url: side.url,
    connections: CONNECTIONS,
    ...limit,
    requests: [
      {
        method: 'POST',
        path: '/api/v1/slot-holds',
        headers: side.headers,
        setupRequest: (request, context: Context) => {
          const booking = JSON.parse(side.next()) as Record<string, unknown>;
          context.booking = booking;
          const { appointmentTypeID, calendarID, datetime } = booking;
          return { ...request, body: JSON.stringify({ appointmentTypeID, calendarID, datetime }) };
        },
        onResponse: (status, body, context: Context) => {
          if (status !== 200) return refused(status, body);
          held++;
          context.token = (JSON.parse(body) as { token: string }).token;
        },
      },
      {
        method: 'POST',
        path: '/api/v1/appointments',
        headers: side.headers,
        // Without a hold there is nothing to book: start again with the next slot.
        setupRequest: (request, context: Context) =>
          context.token
            ? { ...request, body: JSON.stringify({ ...context.booking, holdToken: context.token }) }
            : (null as unknown as typeof request),
        onResponse: (status, body) => {
          if (status >= 200 && status < 300) booked.holds++;
          else refused(status, body);
        },
      },
    ],
  };
}

async function measure(
  pid: number | undefined,
  dbPid: number | undefined,
  redisPid: number | undefined,
  side: Side,
): Promise<Round> {
  const dbBefore = cpuTimeMs(dbPid);
  const accountedBefore = accountedMs(pid, dbPid, redisPid);
  const busyBefore = machineBusyMs();
  const started = Date.now();
  const r = await loadServer(pid, options(side, { duration: DURATION_S }));
  const elapsedMs = (Date.now() - started) * cpus().length;
  const busyAfter = machineBusyMs();
  const accountedAfter = accountedMs(pid, dbPid, redisPid);
  const dbAfter = cpuTimeMs(dbPid);
  const ok = r.requests - r.non2xx;
  return {
    // Autocannon's average counts every answer; a booking is a 2xx one.
    bookingsPerSecond: r.requests > 0 ? (r.requestsPerSecond * ok) / r.requests : 0,
    p50: r.p50Ms,
    p99: r.p99Ms,
    cpuUs:
      r.cpuUsPerRequest === undefined || ok === 0
        ? undefined
        : (r.cpuUsPerRequest * r.requests) / ok,
    dbCpuUs:
      dbBefore === undefined || dbAfter === undefined || ok === 0
        ? undefined
        : ((dbAfter - dbBefore) * 1000) / ok,
    requests: r.requests,
    non2xx: r.non2xx,
    errors: r.errors,
    others:
      busyBefore === undefined ||
      busyAfter === undefined ||
      accountedBefore === undefined ||
      accountedAfter === undefined
        ? undefined
        : Math.max(0, busyAfter - busyBefore - (accountedAfter - accountedBefore)) / elapsedMs,
    steal: r.steal,
  };
}

/** CPU time (ms) of the server, MariaDB, Redis and this process (the load generator). */
function accountedMs(...pids: (number | undefined)[]): number | undefined {
  let total = process.cpuUsage().user / 1000 + process.cpuUsage().system / 1000;
  for (const pid of pids) {
    if (pid === undefined) continue;
    const ms = cpuTimeMs(pid);
    if (ms === undefined) return undefined;
    total += ms;
  }
  return total;
}

/** CPU time (ms, all CPUs) the machine spent running anything (not idle, iowait or steal). */
function machineBusyMs(): number | undefined {
  try {
    const [, user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]
      .trim()
      .split(/\s+/)
      .map(Number);
    return ((user + nice + system + irq + softirq) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Every 2xx must be one appointment row with its one outbox row (an A/B variant built before one
 * event per change may write two); then the rows are removed.
 */
async function checkRows(env: NodeJS.ProcessEnv, sides: Side[]): Promise<string> {
  if (sides.length === 0) return 'rows: not checked';
  const connection = await createConnection({
    host: env.DB_HOST ?? '127.0.0.1',
    port: Number(env.DB_PORT ?? 3306),
    user: env.DB_USER ?? 'root',
    password: env.DB_PASSWORD ?? '',
    database: env.DB_NAME,
  });
  const parts: string[] = [];
  try {
    for (const side of sides) {
      const [[a]] = await connection.query<({ n: number } & RowDataPacket)[]>(
        'SELECT COUNT(*) AS n FROM appointments WHERE account_id = ?',
        [side.accountId],
      );
      const [[c]] = await connection.query<({ n: number } & RowDataPacket)[]>(
        'SELECT COUNT(*) AS n FROM clients WHERE account_id = ?',
        [side.accountId],
      );
      const [[o]] = await connection.query<({ n: number; pending: number } & RowDataPacket)[]>(
        'SELECT COUNT(*) AS n, COALESCE(SUM(dispatched_at IS NULL), 0) AS pending FROM outbox WHERE account_id = ?',
        [side.accountId],
      );
      // A series side's request books SERIES_COUNT appointments for one client.
      const each = side.name === 'series' ? SERIES_COUNT : 1;
      // A timed load stops counting with requests in flight (≤ 1 per connection): those book too.
      const unseen = Number(a.n) / each - booked[side.name];
      const [[hl]] = await connection.query<({ n: number } & RowDataPacket)[]>(
        'SELECT COUNT(*) AS n FROM slot_holds WHERE account_id = ?',
        [side.accountId],
      );
      // Each booking is a client of its own (distinctSlots): one client row each.
      const fits =
        unseen >= 0 &&
        unseen <= CONNECTIONS * ROUNDS &&
        (Number(o.n) === Number(a.n) ||
          (side.name === 'variant' && Number(o.n) === 2 * Number(a.n))) &&
        Number(c.n) * each === Number(a.n);
      // Each booking of the holds side spent its hold: what is left are holds whose booking a
      // timed load's end cut off (≤ 1 per connection and round).
      const holdsFit =
        side.name !== 'holds' ||
        (Number(hl.n) <= CONNECTIONS * ROUNDS && held - Number(a.n) <= CONNECTIONS * ROUNDS);
      parts.push(
        `${side.name} ${side.name === 'holds' ? `${held} holds, ` : ''}${booked[side.name]} × 2xx bookings → ${a.n} appointments (${unseen} answered after a timed load stopped), ${c.n} clients, ${o.n} outbox rows (${o.pending} left undispatched)${side.name === 'holds' ? `, ${hl.n} holds left` : ''}${fits && holdsFit ? '' : ' — MISMATCH'}`,
      );
      if (!KEEP_ROWS) {
        await connection.query('DELETE FROM appointments WHERE account_id = ?', [side.accountId]);
        await connection.query('DELETE FROM clients WHERE account_id = ?', [side.accountId]);
        await connection.query('DELETE FROM outbox WHERE account_id = ?', [side.accountId]);
        await connection.query('DELETE FROM slot_holds WHERE account_id = ?', [side.accountId]);
        await connection.query('DELETE FROM appointment_series WHERE account_id = ?', [
          side.accountId,
        ]);
      }
    }
  } finally {
    await connection.end();
  }
  return `rows: ${parts.join('; ')}${KEEP_ROWS ? '' : ' (then deleted; BENCH_KEEP=1 keeps them)'}`;
}

function pidOf(name: string): number | undefined {
  const out = spawnSync('pgrep', ['-x', name], { encoding: 'utf8' });
  const pid = Number(out.stdout?.trim().split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function defined(values: (number | undefined)[]): number[] {
  return values.filter((v): v is number => v !== undefined);
}

function medianOf(rounds: Round[]): Round {
  const cpu = defined(rounds.map((r) => r.cpuUs));
  const db = defined(rounds.map((r) => r.dbCpuUs));
  return {
    bookingsPerSecond: median(rounds.map((r) => r.bookingsPerSecond)),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    cpuUs: cpu.length > 0 ? median(cpu) : undefined,
    dbCpuUs: db.length > 0 ? median(db) : undefined,
    requests: median(rounds.map((r) => r.requests)),
    non2xx: median(rounds.map((r) => r.non2xx)),
    errors: median(rounds.map((r) => r.errors)),
    others: undefined,
    steal: undefined,
  };
}

function sum(rounds: Round[], key: 'requests' | 'non2xx' | 'errors'): number {
  return rounds.reduce((total, r) => total + r[key], 0);
}

function describe(r: Round, what = 'bookings'): string {
  return (
    `${r.bookingsPerSecond.toFixed(0)} ${what}/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ` +
    `CPU/booking ${us(r.cpuUs)} (MariaDB ${us(r.dbCpuUs)}), non-2xx ${r.non2xx}${r.errors ? `, errors ${r.errors}` : ''}`
  );
}

function percent(value: number | undefined): string {
  return value === undefined || Number.isNaN(value) ? 'n/a' : `${(value * 100).toFixed(0)}%`;
}

function us(value: number | undefined): string {
  return value === undefined ? 'n/a' : `${value.toFixed(0)} µs`;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

function describeVariant(r: { rate?: number; cpu?: number; db?: number }): string {
  const x = (value: number | undefined) => (value === undefined ? 'n/a' : `${value.toFixed(3)}×`);
  return `bookings/s ${x(r.rate)}, CPU per booking ${x(r.cpu)}, MariaDB CPU per booking ${x(r.db)}`;
}
