/**
 * bench:webhooks — webhook deliveries end to end: bookings through the built API (dist/main.js),
 * their `appointment.scheduled` events delivered by the built worker (dist/worker.js) to a
 * receiver in this process (node:http on 127.0.0.1, answers 200 at once), with one dynamic
 * subscription; the account's confirmation e-mails and SMS are switched off. Production settings but for the target policy (loopback and any port allowed).
 *
 * Two measurements, each in several rounds (medians reported):
 * - latency: bookings at a steady pace (LATENCY_RATE a second, each started on its schedule
 *   whether the ones before have answered or not: an open load, as clients make) with the worker
 *   running; for each, the time from the booking's 200 to the receipt of its webhook (p50, p99).
 *   A closed loop ("n at a time") would send bookings in bursts of n whenever the service is
 *   slow, and measure the bursts' queueing rather than the pipeline;
 * - throughput: with the domain-events queue paused (Bull's global pause: the running worker takes
 *   none of its jobs), BACKLOG bookings are made; then the queue is resumed and the receiver counts
 *   deliveries per second from the first receipt to the last (the fan-out of each event and the
 *   delivery, attempt recorded, as in production). The worker is the one that served the latency
 *   rounds, warm, as a deployed worker is: an earlier version stopped it and started a new process
 *   for the backlog, and so measured a cold start with it (a process compiling its paths and
 *   opening its connections during the first second of a 3-second drain: 744–1,073 deliveries/s
 *   from one run to the next, against 1,281–1,458 once 6,000 queued amortised it).
 *   BENCH_COLD_WORKER=1 measures that way still: the worker stopped, then started for the backlog.
 * Every booking's webhook must arrive exactly once per round (counted by `webhook-id`); missing or
 * duplicate deliveries are reported. Targets (issue 7): >= 1,000 deliveries/s, p50 <= 50 ms.
 */
import { join } from 'node:path';
import Bull from 'bull';
import { QueueName } from '../src/common/queues/queue-names';
import { DAY, MINUTE } from '../src/common/time/durations';
import {
  DIST,
  type Receipt,
  benchApi,
  benchEnv,
  cli,
  createOpenCalendars,
  dropQueueKeys,
  machine,
  median,
  redisOptions,
  startProcess,
  startWebhookReceiver,
  stopProcess,
  tallyReceipts,
  writeResult,
} from './lib';
import { percentile } from '../test/support/percentile';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 3_000);
const LATENCY_BOOKINGS = Number(process.env.BENCH_LATENCY_BOOKINGS ?? 400);
/**
 * Bookings a second during the latency measurement: a steady load, about a sixth of what the API
 * books on this 2-core machine (BENCH_LATENCY_RATE=200 shows a heavier one).
 */
const LATENCY_RATE = Number(process.env.BENCH_LATENCY_RATE ?? 100);
/** Throughput of a worker started for the backlog, instead of the warm one (see above). */
const COLD_WORKER = process.env.BENCH_COLD_WORKER === '1';
const CONCURRENCY_BACKLOG = 20;
const CALENDARS = 50;
const SLOT_MINUTES = 15;
const ZONE = 'America/New_York';
const API_PORT = 3905;
const WORKER_PORT = 3906;
const QUEUE_PREFIX = 'bench-webhooks';
const TARGET_PER_SECOND = 1_000;
const TARGET_P50_MS = 50;

/** Webhooks received, by appointment id (the body's `id`), with how many times each came. */
let receipts: Map<number, Receipt>;
let receiptsOf: (ids: number[], timeoutMs?: number) => Promise<void>;

async function main(): Promise<void> {
  const receiver = await startWebhookReceiver();
  ({ receipts, waitFor: receiptsOf } = receiver);
  const { target } = receiver;

  const env = benchEnv({
    PORT: String(API_PORT),
    WORKER_PORT: String(WORKER_PORT),
    QUEUE_PREFIX,
    WEBHOOK_ALLOWED_PORTS: '*',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  });
  await dropQueueKeys(env, QUEUE_PREFIX);
  const account = cli<{ id: number; apiKey: string }>(
    ['account:create', '--email', `bench-webhooks-${Date.now()}@example.test`, '--name', 'Bench'],
    env,
  );
  const api = await startProcess(
    join(DIST, 'main.js'),
    env,
    `http://127.0.0.1:${API_PORT}/health/live`,
  );
  const startWorker = () =>
    startProcess(join(DIST, 'worker.js'), env, `http://127.0.0.1:${WORKER_PORT}/health/ready`);
  let worker = await startWorker();
  // The bench's handle on the queue the API hands events to, to hold the backlog (see above).
  const domainEvents = new Bull(QueueName.DomainEvents, {
    prefix: QUEUE_PREFIX,
    redis: redisOptions(env),
  });
  const latencies: {
    p50: number;
    p99: number;
    bookingsPerSecond: number;
    lost: number;
    duplicates: number;
  }[] = [];
  const throughputs: { perSecond: number; lost: number; duplicates: number }[] = [];
  try {
    const book = await setUp(account, target);
    // Warm-up: both processes compile their paths.
    await measureLatency(book, 200);
    for (let round = 1; round <= ROUNDS; round++) {
      const latency = await measureLatency(book, LATENCY_BOOKINGS);
      latencies.push(latency);
      if (COLD_WORKER) await stopProcess(worker);
      else await domainEvents.pause();
      const backlog = await bookAll(book, BACKLOG, CONCURRENCY_BACKLOG);
      if (COLD_WORKER) worker = await startWorker();
      else await domainEvents.resume();
      const throughput = await measureThroughput(backlog);
      throughputs.push(throughput);
      console.log(
        `round ${round}: latency p50 ${latency.p50.toFixed(1)} ms, p99 ${latency.p99.toFixed(1)} ms ` +
          `(${LATENCY_BOOKINGS} bookings at ${LATENCY_RATE}/s: ` +
          `${latency.bookingsPerSecond.toFixed(0)} bookings/s answered) | throughput ` +
          `${throughput.perSecond.toFixed(0)} deliveries/s (${BACKLOG} queued, ${COLD_WORKER ? 'cold' : 'warm'} worker) | lost ` +
          `${latency.lost + throughput.lost}, duplicates ${latency.duplicates + throughput.duplicates}`,
      );
    }
  } finally {
    await domainEvents.close();
    await stopProcess(worker);
    await stopProcess(api);
    receiver.close();
    await dropQueueKeys(env, QUEUE_PREFIX);
  }

  const p50 = median(latencies.map((l) => l.p50));
  const p99 = median(latencies.map((l) => l.p99));
  const perSecond = median(throughputs.map((t) => t.perSecond));
  const lost = [...latencies, ...throughputs].reduce((sum, r) => sum + r.lost, 0);
  const duplicates = [...latencies, ...throughputs].reduce((sum, r) => sum + r.duplicates, 0);
  console.log(
    `\nbench:webhooks — appointment.scheduled webhooks to a local receiver, ${ROUNDS} rounds`,
  );
  console.log(`  ${machine()}`);
  console.log(
    `  booking→receipt latency at ${LATENCY_RATE} bookings/s (median of rounds): p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms ` +
      `→ ${p50 <= TARGET_P50_MS ? 'met' : 'NOT MET'} (target p50 ≤ ${TARGET_P50_MS} ms, ` +
      `${(p50 / TARGET_P50_MS).toFixed(2)}× the target)`,
  );
  console.log(
    `  delivery throughput (median of rounds, ${COLD_WORKER ? 'a worker started for the backlog' : 'the running worker'}): ${perSecond.toFixed(0)} deliveries/s → ` +
      `${perSecond >= TARGET_PER_SECOND ? 'met' : 'NOT MET'} (target ≥ ${TARGET_PER_SECOND}/s, ` +
      `${(perSecond / TARGET_PER_SECOND).toFixed(2)}× the target)`,
  );
  console.log(`  lost deliveries: ${lost}, duplicate deliveries: ${duplicates}`);
  writeResult({
    bench: 'webhooks',
    title: 'appointment.scheduled webhooks, booking to receipt, to a local receiver',
    settings: { rounds: ROUNDS, backlog: BACKLOG, latencyBookings: LATENCY_BOOKINGS },
    figures: [
      {
        label: 'delivery throughput',
        value: perSecond,
        unit: 'deliveries/s',
        target: { op: '>=', value: TARGET_PER_SECOND },
      },
      {
        label: 'booking→receipt p50',
        value: p50,
        unit: 'ms',
        target: { op: '<=', value: TARGET_P50_MS },
      },
      { label: 'booking→receipt p99', value: p99, unit: 'ms' },
      { label: 'lost deliveries', value: lost, unit: 'count', target: { op: '<=', value: 0 } },
      {
        label: 'duplicate deliveries',
        value: duplicates,
        unit: 'count',
        target: { op: '<=', value: 0 },
      },
    ],
  });
  if (lost > 0 || duplicates > 0) process.exitCode = 1;
}

type Book = () => Promise<{ id: number; at: number }>;

async function setUp(account: { id: number; apiKey: string }, target: string): Promise<Book> {
  const api = benchApi(API_PORT, account);
  const { calendarIds, typeId } = await createOpenCalendars(api, {
    calendars: CALENDARS,
    minutes: SLOT_MINUTES,
    zone: ZONE,
  });
  await api.post('/webhooks', { event: 'appointment.scheduled', target });
  // Webhooks only: the account's confirmation e-mails and SMS are off (the worker would otherwise
  // send them too, to an SMTP server the bench does not run).
  await api.put('/settings', { sendConfirmationEmail: false, sendSms: false });
  const firstDay = Math.floor(Date.now() / DAY) * DAY + 30 * DAY;
  let counter = 0;
  return async () => {
    const i = counter++;
    const slot = Math.floor(i / CALENDARS);
    const start = firstDay + Math.floor(slot / 96) * DAY + (slot % 96) * SLOT_MINUTES * MINUTE;
    const { id } = await api.post('/appointments', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada.lovelace@example.test',
      appointmentTypeID: typeId,
      calendarID: calendarIds[i % CALENDARS],
      datetime: new Date(start).toISOString(),
    });
    return { id, at: performance.now() };
  };
}

/** Makes `count` bookings, `concurrency` at a time; returns when each got its 200. */
async function bookAll(
  book: Book,
  count: number,
  concurrency: number,
): Promise<{ id: number; at: number }[]> {
  const done: { id: number; at: number }[] = [];
  let started = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < count) {
        started += 1;
        done.push(await book());
      }
    }),
  );
  return done;
}

/** Makes `count` bookings, one every 1/`perSecond` s on a fixed schedule; returns when all answered. */
async function bookPaced(
  book: Book,
  count: number,
  perSecond: number,
): Promise<{ id: number; at: number }[]> {
  const start = performance.now();
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const wait = start + (i * 1000) / perSecond - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      return book();
    }),
  );
}

async function measureLatency(
  book: Book,
  count: number,
): Promise<{
  p50: number;
  p99: number;
  bookingsPerSecond: number;
  lost: number;
  duplicates: number;
}> {
  const started = performance.now();
  const booked = await bookPaced(book, count, LATENCY_RATE);
  const bookingsPerSecond = (count * 1000) / (Math.max(...booked.map((b) => b.at)) - started);
  await receiptsOf(booked.map((b) => b.id));
  // A duplicate may come late: give it a moment before counting.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const latencies = booked
    .filter((b) => receipts.has(b.id))
    .map((b) => receipts.get(b.id)!.at - b.at)
    .sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    bookingsPerSecond,
    ...tally(booked),
  };
}

async function measureThroughput(
  booked: { id: number }[],
): Promise<{ perSecond: number; lost: number; duplicates: number }> {
  await receiptsOf(
    booked.map((b) => b.id),
    120_000,
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  const times = booked
    .map((b) => receipts.get(b.id)?.at)
    .filter((at): at is number => at !== undefined)
    .sort((a, b) => a - b);
  const seconds = (times[times.length - 1] - times[0]) / 1000;
  return { perSecond: (times.length - 1) / seconds, ...tally(booked) };
}

function tally(booked: { id: number }[]): { lost: number; duplicates: number } {
  return tallyReceipts(receipts, booked);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
