/**
 * bench:scale's Galera part: multi-primary on a 3-node MariaDB Galera cluster of local
 * mariadbd processes (test/support/galera-cluster.ts, started in a temporary directory, killed and
 * removed at the end), in one database of the cluster; API processes (built dist/main.js,
 * production settings): one on each node, and two more on node 1.
 *
 * Bookings (bench:booking's load, each request a distinct (calendar, start), CONNECTIONS in all)
 * in rounds alternating two sides of the same cluster and API count: 3 nodes (one API on each,
 * each API writing to its own node) against 1 node (3 APIs all writing to node 1, the other two
 * nodes applying its write sets). Two variants: spread over 100 calendars, and contended over 5
 * (more rows shared between nodes). Per round: bookings/s (2xx), p50/p99 (the slowest API's),
 * non-2xx, transactions retried (db_transaction_retries_total of every API, read from each API's
 * metrics port before and after) and certification failures and brute-force aborts (the nodes'
 * wsrep_local_cert_failures + wsrep_local_bf_aborts) per booking.
 *
 * Availability: `GET /availability/times` (a calendar of the 100 in turn, a day where the warm-up
 * booked) under 8 connections against the API of each node in turn and against an API on the
 * machine's single MariaDB (127.0.0.1:3306, a database of its own with the same calendars and
 * warm-up bookings): p50 per node against the single server's, target ≤ 1.5×. Every API runs with
 * AVAILABILITY_CACHE_TTL_MS=0, so every answer is computed from its node (a kept answer would
 * measure Redis). Checked at the end, on each node: no calendar double booked, the same count of
 * appointments.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { type Connection, type RowDataPacket, createConnection } from 'mysql2/promise';
import { type GaleraNode, startGaleraCluster, wsrepStatus } from '../test/support/galera-cluster';
import { sample } from '../test/support/metrics';
import {
  DIST,
  benchApi,
  benchEnv,
  cli,
  createOpenCalendars,
  distinctSlots,
  dropQueueKeys,
  load,
  startProcess,
  stopProcess,
} from './lib';
import {
  type BookingRound,
  type GaleraResult,
  type Side,
  describe,
  report,
} from './scale-galera-report';

const CONNECTIONS = 21; // 7 on each of the 3 APIs of a side
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_REQUESTS = Number(process.env.BENCH_WARMUP ?? 2_000);
const CALENDARS = 100;
const CONTENDED_CALENDARS = 5;
const SLOT_MINUTES = 15;
const ZONE = 'America/New_York';
const DAY_MS = 86_400_000;
const QUEUE_PREFIX = 'bench-scale-galera';
const SINGLE_PORT = 3918;

interface Api {
  name: string;
  port: number;
  metricsPort: number;
  node: GaleraNode;
}

export async function galeraDimension(): Promise<GaleraResult> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-galera-'));
  const pids: number[] = [];
  const killCluster = () => {
    for (const pid of pids.splice(0))
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
  };
  process.once('exit', killCluster);
  const children: ChildProcess[] = [];
  const admins: Connection[] = [];
  const database = `${benchEnv().DB_NAME}_galera`;
  const base = { QUEUE_PREFIX, AVAILABILITY_CACHE_TTL_MS: '0' };
  const single = benchEnv({ ...base, DB_NAME: `${database}_single`, PORT: String(SINGLE_PORT) });
  try {
    const started = performance.now();
    const { nodes } = await startGaleraCluster(dir, pids);
    console.log(`galera: 3 nodes synced in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    for (const node of nodes) admins.push(await connectTo(node.port));
    await dropQueueKeys(single, QUEUE_PREFIX);
    await dropDatabase(single);
    const [g1, g2, g3] = nodes;
    const apis: Api[] = [g1, g2, g3, g1, g1].map((node, i) => ({
      name: i < 3 ? node.name : `${node.name}/${i - 1}`,
      port: 3913 + i,
      metricsPort: 9473 + i,
      node,
    }));
    // As deployed (docs/scaling.md): each API lists the nodes, its own first (DB_HOSTS), which
    // also turns causal reads on.
    const envOf = (api: Api, migrate: boolean) => {
      const env = benchEnv({
        ...base,
        DB_NAME: database,
        DB_HOSTS: [api.node, ...nodes.filter((n) => n !== api.node)]
          .map((n) => `${n.host}:${n.port}`)
          .join(','),
        DB_MIGRATE_ON_START: String(migrate),
        PORT: String(api.port),
        METRICS_PORT: String(api.metricsPort),
      });
      delete env.DB_HOST;
      delete env.DB_PORT;
      return env;
    };
    const start = (env: NodeJS.ProcessEnv) =>
      startProcess(join(DIST, 'main.js'), env, `http://127.0.0.1:${env.PORT}/health/ready`);
    // The first API creates the schema; the others start on it (no DDL racing on the cluster).
    children.push(await start(envOf(apis[0], true)));
    children.push(...(await Promise.all([...apis.slice(1).map((a) => start(envOf(a, false)))])));
    children.push(await start(single));

    const clusterSide = await setUp(apis[0].port, envOf(apis[0], false), true);
    const singleSide = await setUp(SINGLE_PORT, single, false);
    // The same cluster, API count and load: each API on its own node, or all three on node 1.
    const sides: Record<Side, number[]> = {
      '3 nodes': apis.slice(0, 3).map((a) => a.port),
      '1 node': [apis[0], apis[3], apis[4]].map((a) => a.port),
    };
    const warmUp = { amount: WARMUP_REQUESTS };
    await bookings(sides['3 nodes'], clusterSide.spread, clusterSide.headers, warmUp);
    await bookings([SINGLE_PORT], singleSide.spread, singleSide.headers, warmUp);

    // Availability: rounds alternate the single server and each node (a warm-up round first).
    const p50s: Record<string, number[]> = {};
    const targets = [
      { name: 'single', port: SINGLE_PORT, side: singleSide },
      ...apis.slice(0, 3).map((a) => ({ name: a.name, port: a.port, side: clusterSide })),
    ];
    for (let round = 0; round <= ROUNDS; round++) {
      const line: string[] = [];
      for (const t of targets) {
        const p50 = await availabilityP50(t.port, t.side);
        line.push(`${t.name} ${p50} ms`);
        if (round > 0) (p50s[t.name] ??= []).push(p50);
      }
      console.log(`galera availability/times p50, round ${round || 'warm-up'}: ${line.join(', ')}`);
    }

    const rounds: BookingRound[] = [];
    for (let round = 1; round <= ROUNDS; round++)
      for (const variant of ['spread', 'contended'] as const) {
        const order: Side[] = round % 2 ? ['3 nodes', '1 node'] : ['1 node', '3 nodes'];
        for (const side of order) {
          const retriesBefore = await retries(apis);
          const conflictsBefore = await conflicts(admins);
          const limit = { duration: DURATION_S };
          const {
            bookings: n,
            refused,
            ...r
          } = await bookings(sides[side], clusterSide[variant], clusterSide.headers, limit);
          const retried = (await retries(apis)) - retriesBefore;
          const conflicted = (await conflicts(admins)) - conflictsBefore;
          const x: BookingRound = {
            side,
            variant,
            ...r,
            retryRate: n > 0 ? (retried / n) * 100 : 0,
            conflictRate: n > 0 ? (conflicted / n) * 100 : 0,
          };
          rounds.push(x);
          console.log(`galera round ${round}, ${variant}, ${side}: ${describe(x)}`);
          if (refused) console.log(`  refused: ${refused}`);
        }
      }

    const checks = await Promise.all(admins.map((c) => check(c, database, clusterSide.accountId)));
    const settings = {
      connections: CONNECTIONS,
      rounds: ROUNDS,
      durationS: DURATION_S,
      warmup: WARMUP_REQUESTS,
      calendars: CALENDARS,
      contendedCalendars: CONTENDED_CALENDARS,
    };
    const names = nodes.map((n) => n.name);
    return report(settings, names, rounds, p50s, checks);
  } finally {
    for (const child of children) await stopProcess(child);
    for (const admin of admins) await admin.end().catch(() => undefined);
    killCluster();
    process.off('exit', killCluster);
    await new Promise((r) => setTimeout(r, 500)); // the killed nodes let go of their files
    await rm(dir, { recursive: true, force: true });
    await dropQueueKeys(single, QUEUE_PREFIX);
  }
}

type Limit = { duration: number } | { amount: number };

/** An account, 100 open calendars (and 5 more on the cluster), booking and availability inputs. */
async function setUp(port: number, env: NodeJS.ProcessEnv, contended: boolean) {
  const account = cli<{ id: number; apiKey: string }>(
    ['account:create', '--email', `bench-galera-${Date.now()}@example.test`, '--name', 'Bench'],
    env,
  );
  const api = benchApi(port, account);
  await api.put('/settings', { sendConfirmationEmail: false, sendSms: false });
  const options = { minutes: SLOT_MINUTES, zone: ZONE };
  const { calendarIds, typeId } = await createOpenCalendars(api, {
    calendars: CALENDARS,
    ...options,
  });
  const slots = (ids: number[], type: number) =>
    distinctSlots({
      calendarIds: ids,
      typeId: type,
      slotMinutes: SLOT_MINUTES,
      firstDayAhead: 30,
      maxDaysInAdvance: 3650,
    });
  const few = contended
    ? await createOpenCalendars(api, { calendars: CONTENDED_CALENDARS, ...options })
    : undefined;
  return {
    accountId: account.id,
    headers: api.headers,
    calendarIds,
    typeId,
    spread: slots(calendarIds, typeId),
    contended: few ? slots(few.calendarIds, few.typeId) : () => '',
  };
}

/**
 * Bookings on the APIs of `ports` (CONNECTIONS shared out), their rate and quantiles, and the
 * refusals: by status, with the first answer of each.
 */
async function bookings(
  ports: number[],
  next: () => string,
  headers: Record<string, string>,
  limit: Limit,
) {
  const refusals = new Map<number, { count: number; first: string }>();
  const onResponse = (status: number, body: string | Buffer) => {
    if (status >= 200 && status < 300) return;
    const seen = refusals.get(status);
    if (seen) seen.count += 1;
    else refusals.set(status, { count: 1, first: String(body).slice(0, 160) });
  };
  const results = await Promise.all(
    ports.map((port) =>
      load({
        url: `http://127.0.0.1:${port}/api/v1/appointments`,
        connections: Math.ceil(CONNECTIONS / ports.length),
        ...('amount' in limit ? { amount: Math.ceil(limit.amount / ports.length) } : limit),
        requests: [
          {
            method: 'POST',
            path: '/api/v1/appointments',
            headers,
            setupRequest: (request) => ({ ...request, body: next() }),
            onResponse,
          },
        ],
      }),
    ),
  );
  const ok = (x: (typeof results)[number]) => x.requests - x.non2xx;
  return {
    bookingsPerSecond: results.reduce(
      (sum, x) => sum + (x.requests > 0 ? (x.requestsPerSecond * ok(x)) / x.requests : 0),
      0,
    ),
    p50: Math.max(...results.map((x) => x.p50Ms)),
    p99: Math.max(...results.map((x) => x.p99Ms)),
    non2xx: results.reduce((sum, x) => sum + x.non2xx, 0),
    bookings: results.reduce((sum, x) => sum + ok(x), 0),
    refused: [...refusals].map(([status, r]) => `${status} ×${r.count} (${r.first})`).join('; '),
  };
}

/** `/availability/times` p50 on one API: a calendar of the 100 in turn, a day the warm-up booked. */
async function availabilityP50(
  port: number,
  side: { headers: Record<string, string>; calendarIds: number[]; typeId: number },
): Promise<number> {
  const firstDay = Math.floor(Date.now() / DAY_MS) * DAY_MS + 30 * DAY_MS;
  const days = Math.max(1, Math.floor(WARMUP_REQUESTS / CALENDARS));
  let k = 0;
  const path = () => {
    const i = k++;
    const day = new Date(firstDay + (i % days) * DAY_MS).toISOString().slice(0, 10);
    const calendar = side.calendarIds[i % side.calendarIds.length];
    return `/api/v1/availability/times?appointmentTypeID=${side.typeId}&calendarID=${calendar}&date=${day}`;
  };
  const result = await load({
    url: `http://127.0.0.1:${port}`,
    connections: 8,
    duration: DURATION_S,
    requests: [
      { method: 'GET', headers: side.headers, setupRequest: (r) => ({ ...r, path: path() }) },
    ],
  });
  if (result.non2xx > 0) throw new Error(`availability on port ${port}: ${result.non2xx} non-2xx`);
  return result.p50Ms;
}

/** Transactions run again so far, all reasons, summed over the APIs' metrics. */
async function retries(apis: Api[]): Promise<number> {
  let total = 0;
  for (const api of apis) {
    const res = await fetch(`http://127.0.0.1:${api.metricsPort}/metrics`);
    if (res.status !== 200) throw new Error(`${api.name} /metrics: ${res.status}`);
    total += sample(await res.text(), 'db_transaction_retries_total');
  }
  return total;
}

/** Certification failures and brute-force aborts so far, summed over the nodes. */
async function conflicts(admins: Connection[]): Promise<number> {
  let total = 0;
  for (const admin of admins) {
    const s = await wsrepStatus(admin);
    total += Number(s.wsrep_local_cert_failures) + Number(s.wsrep_local_bf_aborts);
  }
  return total;
}

/** One node's double bookings and appointments of the account (a causal read: wsrep_sync_wait). */
async function check(admin: Connection, database: string, accountId: number) {
  await admin.query('SET SESSION wsrep_sync_wait = 1');
  const [[doubles]] = await admin.query<RowDataPacket[]>(
    `SELECT COUNT(*) AS n FROM \`${database}\`.appointments a
       JOIN \`${database}\`.appointments b ON b.calendar_id = a.calendar_id AND b.id > a.id
        AND b.busy_from < a.busy_until AND a.busy_from < b.busy_until
      WHERE a.account_id = ? AND a.canceled = 0 AND b.canceled = 0`,
    [accountId],
  );
  const [[count]] = await admin.query<RowDataPacket[]>(
    `SELECT COUNT(*) AS n FROM \`${database}\`.appointments WHERE account_id = ?`,
    [accountId],
  );
  return { doubleBookings: Number(doubles.n), appointments: Number(count.n) };
}

function connectTo(port: number): Promise<Connection> {
  return createConnection({ host: '127.0.0.1', port, user: 'root', password: '' });
}

/** Drops the single server's database of this part: the API makes it again. */
async function dropDatabase(env: NodeJS.ProcessEnv): Promise<void> {
  const admin = await createConnection({
    host: env.DB_HOST ?? '127.0.0.1',
    port: Number(env.DB_PORT ?? 3306),
    user: env.DB_USER ?? 'root',
    password: env.DB_PASSWORD ?? '',
  });
  try {
    await admin.query(`DROP DATABASE IF EXISTS \`${env.DB_NAME}\``);
  } finally {
    await admin.end();
  }
}
