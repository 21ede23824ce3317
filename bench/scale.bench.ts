/**
 * bench:scale — the service scaled out on this machine as pods run it: 2 API processes and 2
 * workers (the built dist/main.js and dist/worker.js, production settings), one MySQL, one Redis,
 * under the load of bench:booking (each request a distinct (calendar, start) of 100 open
 * calendars, 20 connections) spread over the APIs, every booking's `appointment.scheduled` webhook
 * delivered by the workers to a receiver in this process.
 *
 * Rounds alternate: the 20 connections on one API, then 10 on each of the two (both workers run in
 * both). Per round: bookings/s (2xx), p50/p99, webhook deliveries/s while the load runs and after,
 * how long after the load the last webhook came; medians reported, 2 APIs against 1. Checked at the
 * end: no calendar double booked (MySQL), every booking's webhook received (lost and duplicates
 * counted). The machine has 2 cores shared by 4 service processes, MariaDB, Redis and the load
 * generator: the figures say what one small node does, not how far the service scales.
 */
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { type RowDataPacket, createConnection } from 'mysql2/promise';
import {
  DIST,
  type Figure,
  benchApi,
  benchEnv,
  cli,
  createOpenCalendars,
  distinctSlots,
  dropQueueKeys,
  load,
  machine,
  median,
  startProcess,
  startWebhookReceiver,
  stopProcess,
  tallyReceipts,
  writeResult,
} from './lib';
import { galeraDimension } from './scale-galera';
import { dataSizeDimension } from './scale-data';

const CONNECTIONS = 20;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_REQUESTS = Number(process.env.BENCH_WARMUP ?? 2_000);
const CALENDARS = 100;
const SLOT_MINUTES = 15;
const ZONE = 'America/New_York';
const API_PORTS = [3907, 3908];
const WORKER_PORTS = [3909, 3910];
const QUEUE_PREFIX = 'bench-scale';

interface Round {
  apis: number;
  bookingsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** Webhooks of the round's bookings received per second, first to last receipt. */
  deliveriesPerSecond: number;
  /** From the end of the load to the last of its webhooks (ms). */
  drainMs: number;
  lost: number;
}

/**
 * Which parts run (BENCH_SCALE_PARTS, comma-separated): the pods layout, the data size, Galera
 * multi-primary (bench/scale-galera.ts), or any of them.
 */
const PARTS = (process.env.BENCH_SCALE_PARTS ?? 'pods,data,galera').split(',').map((p) => p.trim());

/** The data-size and Galera parts, as selected, one after the other. */
async function otherParts(): Promise<{ figures: Figure[]; notes: string[]; ok: boolean }> {
  const results = [
    ...(PARTS.includes('data') ? [await dataSizeDimension()] : []),
    ...(PARTS.includes('galera') ? [await galeraDimension()] : []),
  ];
  return {
    figures: results.flatMap((r) => r.figures),
    notes: results.flatMap((r) => r.notes),
    ok: results.every((r) => r.ok),
  };
}

async function main(): Promise<void> {
  if (!PARTS.includes('pods')) {
    const result = await otherParts();
    writeResult({
      bench: 'scale',
      title: [
        PARTS.includes('data') && 'Data size: 10k against 1M appointments',
        PARTS.includes('galera') && 'Galera: bookings on 3 nodes against 1, availability per node',
      ]
        .filter(Boolean)
        .join('; '),
      settings: { rounds: ROUNDS, durationS: DURATION_S },
      figures: result.figures,
      notes: result.notes,
    });
    if (!result.ok) process.exitCode = 1;
    return;
  }
  const receiver = await startWebhookReceiver();
  const env = benchEnv({
    QUEUE_PREFIX,
    WEBHOOK_ALLOWED_PORTS: '*',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  });
  await dropQueueKeys(env, QUEUE_PREFIX);
  const account = cli<{ id: number; apiKey: string }>(
    ['account:create', '--email', `bench-scale-${Date.now()}@example.test`, '--name', 'Bench'],
    env,
  );
  const processes = await Promise.all([
    ...API_PORTS.map((port) =>
      startProcess(
        join(DIST, 'main.js'),
        { ...env, PORT: String(port) },
        `http://127.0.0.1:${port}/health/ready`,
      ),
    ),
    ...WORKER_PORTS.map((port) =>
      startProcess(
        join(DIST, 'worker.js'),
        { ...env, WORKER_PORT: String(port) },
        `http://127.0.0.1:${port}/health/ready`,
      ),
    ),
  ]);
  const rounds: Round[] = [];
  const booked: { id: number }[] = [];
  let doubleBookings = -1;
  try {
    const api = benchApi(API_PORTS[0], account);
    const { calendarIds, typeId } = await createOpenCalendars(api, {
      calendars: CALENDARS,
      minutes: SLOT_MINUTES,
      zone: ZONE,
    });
    await api.post('/webhooks', { event: 'appointment.scheduled', target: receiver.target });
    await api.put('/settings', { sendConfirmationEmail: false, sendSms: false });
    const next = distinctSlots({
      calendarIds,
      typeId,
      slotMinutes: SLOT_MINUTES,
      firstDayAhead: 30,
      maxDaysInAdvance: 3650,
    });

    /** The load on `apis` API processes, CONNECTIONS in all; the ids booked. */
    const run = async (apis: number, limit: { duration: number } | { amount: number }) => {
      const ids: number[] = [];
      const results = await Promise.all(
        API_PORTS.slice(0, apis).map((port) =>
          load(options(port, apis, limit, next, api.headers, ids)),
        ),
      );
      return { ids, results, endedAt: performance.now() };
    };

    const warm = await run(2, { amount: WARMUP_REQUESTS });
    booked.push(...warm.ids.map((id) => ({ id })));
    await receiver.waitFor(warm.ids, 120_000);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const apis of [1, 2]) {
        const { ids, results, endedAt } = await run(apis, { duration: DURATION_S });
        booked.push(...ids.map((id) => ({ id })));
        await receiver.waitFor(ids, 120_000);
        const times = ids
          .map((id) => receiver.receipts.get(id)?.at)
          .filter((at): at is number => at !== undefined)
          .sort((a, b) => a - b);
        const seconds = (times[times.length - 1] - times[0]) / 1000;
        const r: Round = {
          apis,
          bookingsPerSecond: results.reduce(
            (sum, x) =>
              sum +
              (x.requests > 0 ? (x.requestsPerSecond * (x.requests - x.non2xx)) / x.requests : 0),
            0,
          ),
          p50: Math.max(...results.map((x) => x.p50Ms)),
          p99: Math.max(...results.map((x) => x.p99Ms)),
          non2xx: results.reduce((sum, x) => sum + x.non2xx, 0),
          deliveriesPerSecond: times.length > 1 ? (times.length - 1) / seconds : 0,
          drainMs: times.length > 0 ? Math.max(0, times[times.length - 1] - endedAt) : 0,
          lost: ids.length - times.length,
        };
        rounds.push(r);
        console.log(`round ${round}, ${apis} API${apis > 1 ? 's' : ''}: ${describe(r)}`);
      }
    }
    doubleBookings = await countDoubleBookings(env, account.id);
  } finally {
    for (const child of processes) await stopProcess(child);
    receiver.close();
    await dropQueueKeys(env, QUEUE_PREFIX);
  }

  const one = medianOf(rounds.filter((r) => r.apis === 1));
  const two = medianOf(rounds.filter((r) => r.apis === 2));
  const { lost, duplicates } = tallyReceipts(receiver.receipts, booked);
  console.log(
    `\nbench:scale — 2 API + 2 worker processes, one MySQL and Redis; POST /api/v1/appointments, ${CONNECTIONS} connections over ${CALENDARS} calendars, ${ROUNDS} × ${DURATION_S}s per layout after ${WARMUP_REQUESTS} warm-up bookings; webhooks to a local receiver`,
  );
  console.log(`  ${machine()}; unpinned (every process shares the cores)`);
  console.log(`  1 API  (median): ${describe(one)}`);
  console.log(`  2 APIs (median): ${describe(two)}`);
  console.log(
    `  2 APIs / 1 API: ${((two.bookingsPerSecond / one.bookingsPerSecond) * 100).toFixed(0)}% of the bookings/s`,
  );
  console.log(
    `  ${booked.length} bookings: double bookings ${doubleBookings}, webhooks lost ${lost}, duplicated ${duplicates}`,
  );
  const others = await otherParts();
  writeResult({
    bench: 'scale',
    title: '2 API + 2 worker processes on one MySQL and Redis: bookings and their webhooks',
    settings: {
      connections: CONNECTIONS,
      rounds: ROUNDS,
      durationS: DURATION_S,
      warmup: WARMUP_REQUESTS,
      calendars: CALENDARS,
    },
    figures: [
      {
        label: 'bookings/s, 2 APIs',
        value: two.bookingsPerSecond,
        unit: 'bookings/s',
        baseline: { label: '1 API', value: one.bookingsPerSecond },
      },
      {
        label: 'p50, 2 APIs',
        value: two.p50,
        unit: 'ms',
        baseline: { label: '1 API', value: one.p50 },
      },
      {
        label: 'p99, 2 APIs',
        value: two.p99,
        unit: 'ms',
        baseline: { label: '1 API', value: one.p99 },
      },
      {
        label: 'webhook deliveries/s, 2 APIs',
        value: two.deliveriesPerSecond,
        unit: 'deliveries/s',
        baseline: { label: '1 API', value: one.deliveriesPerSecond },
      },
      { label: 'last webhook after the load, 2 APIs', value: two.drainMs, unit: 'ms' },
      {
        label: 'double bookings',
        value: doubleBookings,
        unit: 'count',
        target: { op: '<=', value: 0 },
      },
      { label: 'webhooks lost', value: lost, unit: 'count', target: { op: '<=', value: 0 } },
      {
        label: 'webhooks duplicated (at least once is the guarantee)',
        value: duplicates,
        unit: 'count',
      },
      ...others.figures,
    ],
    notes: [`${booked.length} bookings in all (warm-up included)`, ...others.notes],
  });
  if (doubleBookings !== 0 || lost > 0 || !others.ok) process.exitCode = 1;
}

function options(
  port: number,
  apis: number,
  limit: { duration: number } | { amount: number },
  next: () => string,
  headers: Record<string, string>,
  ids: number[],
): autocannon.Options {
  return {
    url: `http://127.0.0.1:${port}/api/v1/appointments`,
    connections: CONNECTIONS / apis,
    ...('amount' in limit ? { amount: Math.ceil(limit.amount / apis) } : limit),
    requests: [
      {
        method: 'POST',
        path: '/api/v1/appointments',
        headers,
        setupRequest: (request) => ({ ...request, body: next() }),
        onResponse: (status, body) => {
          if (status !== 200) return;
          const id = /"id":(\d+)/.exec(String(body))?.[1];
          if (id) ids.push(Number(id));
        },
      },
    ],
  };
}

/** Pairs of live appointments of one calendar whose busy times overlap: 0 or it is a bug. */
async function countDoubleBookings(env: NodeJS.ProcessEnv, accountId: number): Promise<number> {
  const connection = await createConnection({
    host: env.DB_HOST ?? '127.0.0.1',
    port: Number(env.DB_PORT ?? 3306),
    user: env.DB_USER ?? 'root',
    password: env.DB_PASSWORD ?? '',
    database: env.DB_NAME,
  });
  try {
    const [[row]] = await connection.query<({ n: number } & RowDataPacket)[]>(
      `SELECT COUNT(*) AS n FROM appointments a
         JOIN appointments b ON b.calendar_id = a.calendar_id AND b.id > a.id
          AND b.busy_from < a.busy_until AND a.busy_from < b.busy_until
        WHERE a.account_id = ? AND a.canceled = 0 AND b.canceled = 0`,
      [accountId],
    );
    return Number(row.n);
  } finally {
    await connection.end();
  }
}

function medianOf(rounds: Round[]): Round {
  const m = (key: keyof Omit<Round, 'apis'>) => median(rounds.map((r) => r[key]));
  return {
    apis: rounds[0]?.apis ?? 0,
    bookingsPerSecond: m('bookingsPerSecond'),
    p50: m('p50'),
    p99: m('p99'),
    non2xx: m('non2xx'),
    deliveriesPerSecond: m('deliveriesPerSecond'),
    drainMs: m('drainMs'),
    lost: m('lost'),
  };
}

function describe(r: Round): string {
  return (
    `${r.bookingsPerSecond.toFixed(0)} bookings/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}; ` +
    `webhooks ${r.deliveriesPerSecond.toFixed(0)}/s, last ${(r.drainMs / 1000).toFixed(1)} s after the load, lost ${r.lost}`
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
