import type { ChildProcess } from 'node:child_process';
import Redis from 'ioredis';
import { DateTime } from 'luxon';
import { QueueName } from '../../src/common/queues/queue-names';
import { eventually } from '../support/eventually';
import { sample, scrape } from '../support/metrics';
import { type Finished, runCli, startEntry, waitForStatus } from '../support/processes';
import { basicAuth } from '../support/test-app';
import { testConfig, testEnvVars } from '../support/test-environment';
import { Receiver, header } from './receiver';

const ZONE = 'America/New_York';
const FIRST_SLOT = DateTime.fromISO('2030-06-03T00:00', { zone: ZONE }); // a Monday
const PARALLEL = 8;
/** Keys deleted per command while the deployment's keys go (SCAN's COUNT, then one DEL). */
const KEYS_PER_BATCH = 25;
/** Where Bull keeps which jobs are in which state: what the last loss takes, and only that. */
const STATE_KEYS = ['wait', 'active', 'delayed', 'paused', 'priority', 'completed', 'failed'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The fault that lost 3 webhooks of 401 bookings, as real processes (the API's and the worker's
 * entry points, child processes) on MySQL and Redis: a booking load; the worker killed (SIGKILL)
 * with deliveries in flight; the deployment's Redis keys (its QUEUE_PREFIX) deleted in batches
 * while bookings go on (an eviction, a clean-up, a partial failover); then, the load still going,
 * Bull's state lists alone (the jobs' hashes kept). That last step makes deterministic what the
 * batches did by chance (one took `…:wait` and not the `…:<jobId>` hashes written after the SCAN
 * passed them): jobs in no list, `stuck` for Bull, and never run. A worker started again must
 * deliver every booking answered 2xx, within 2 minutes.
 *
 * Small relay and sweeper intervals keep the run short; the receiver answers after 100 ms, so that
 * deliveries are in flight when the worker dies.
 */
describe('Webhooks: a worker killed and Redis keys lost during a booking load lose no event (e2e)', () => {
  let receiver: Receiver;
  let redis: Redis;
  let env: NodeJS.ProcessEnv;
  let prefix: string;
  let apiUrl: string;
  let account: { id: number; apiKey: string };
  const children: { child: ChildProcess; exit: Promise<Finished> }[] = [];

  beforeAll(async () => {
    receiver = await Receiver.start();
    const config = testConfig();
    prefix = `${config.queue.prefix}:redis-loss-run`;
    redis = new Redis({ host: config.redis.host, port: config.redis.port, db: config.redis.db });
    env = testEnvVars({
      QUEUE_PREFIX: prefix,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
      OUTBOX_RELAY_INTERVAL_MS: '200',
      OUTBOX_RELAY_DELAY_MS: '1000',
      OUTBOX_REDELIVER_AFTER_MS: '2000',
      WEBHOOK_SWEEP_INTERVAL_MS: '500',
      WEBHOOK_SWEEP_GRACE_MS: '2000',
    });
    // The account made by the operator CLI while the API and the worker start.
    const [api, , cli] = await Promise.all([
      start('main.ts'),
      start('worker.ts'),
      runCli(
        ['account:create', '--email', `redis-loss-${Date.now()}@example.test`, '--name', 'Loss'],
        env,
      ),
    ]);
    apiUrl = api;
    account = cli.result as { id: number; apiKey: string };
  }, 180_000);

  afterAll(async () => {
    for (const { child, exit } of children) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exit;
      }
    }
    await deleteKeys(); // what the run left under its prefix
    redis?.disconnect();
    await receiver?.close();
  }, 60_000);

  let worker: { child: ChildProcess; exit: Promise<Finished> } | undefined;

  /** Starts an entry point; resolves with its URL once it is ready. */
  async function start(entry: 'main.ts' | 'worker.ts'): Promise<string> {
    const started = await startEntry(entry, env);
    children.push({ child: started.child, exit: started.exit });
    if (entry === 'worker.ts') worker = started;
    await waitForStatus(`${started.url}/health/ready`, 200, 90_000);
    return started.url;
  }

  /** Deletes the deployment's keys, a batch at a time, as SCAN finds them (so: during the load). */
  async function deleteKeys(): Promise<number> {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(
        cursor,
        'MATCH',
        `${prefix}:*`,
        'COUNT',
        KEYS_PER_BATCH,
      );
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
      await sleep(5);
    } while (cursor !== '0');
    return deleted;
  }

  it('delivers the webhook of every booking answered 2xx once a worker runs again', async () => {
    const authorization = basicAuth(account.id, account.apiKey);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${apiUrl}/api/v1${path}`, {
        method,
        headers: { authorization, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const ok = async (method: string, path: string, body?: unknown) => {
      const res = await call(method, path, body);
      if (res.status !== 200) throw new Error(`${method} ${path} → ${res.status}`);
      return res.body;
    };
    const calendar = (
      await ok('POST', '/calendars', {
        name: 'Room',
        timezone: ZONE,
        hours: { monday: [{ start: '00:00', end: '24:00' }] },
      })
    ).id as number;
    const type = (
      await ok('POST', '/appointment-types', {
        name: 'Visit',
        duration: 15,
        calendarIDs: [calendar],
        maxDaysInAdvance: 3650,
      })
    ).id as number;
    const path = `/loss-${account.id}`;
    receiver.answer(path, { status: 200, delayMs: 100 });
    await ok('POST', '/webhooks', { event: 'appointment.scheduled', target: receiver.url(path) });
    // Webhooks only: no confirmation e-mail to an SMTP server the test does not run.
    await ok('PUT', '/settings', { sendConfirmationEmail: false, sendSms: false });

    const booked: number[] = [];
    const refused: string[] = [];
    let next = 0;
    /** Books `count` more appointments, PARALLEL at a time, each in a slot of its own. */
    const bookMore = async (count: number): Promise<void> => {
      const until = next + count;
      await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          while (next < until) {
            const n = next++;
            const datetime = FIRST_SLOT.plus({ weeks: Math.floor(n / 96), minutes: 15 * (n % 96) });
            const res = await call('POST', '/appointments', {
              firstName: 'Ada',
              lastName: 'Lovelace',
              email: 'ada@example.com',
              appointmentTypeID: type,
              calendarID: calendar,
              datetime: datetime.toISO({ suppressMilliseconds: true }),
            });
            if (res.status >= 200 && res.status < 300) booked.push(res.body.id as number);
            else refused.push(`${res.status} ${JSON.stringify(res.body)}`);
          }
        }),
      );
    };
    const receivedIds = () =>
      new Set(receiver.received(path).map((r) => Number(new URLSearchParams(r.body).get('id'))));

    // Deliveries flowing, more in flight: the worker dies.
    await bookMore(60);
    await eventually(() => (receiver.received(path).length >= 20 ? true : undefined), 60_000);
    worker!.child.kill('SIGKILL');
    expect((await worker!.exit).signal).toBe('SIGKILL');

    // The deployment's keys go, in batches, while bookings go on.
    const [, deleted] = await Promise.all([bookMore(120), deleteKeys()]);
    expect(deleted).toBeGreaterThan(0);
    // Jobs queued since wait for a worker, with their hashes; then the lists go, the hashes stay.
    await bookMore(40);
    const queues = Object.values(QueueName);
    await Promise.all([
      bookMore(80),
      redis.del(...queues.flatMap((q) => STATE_KEYS.map((state) => `${prefix}:${q}:${state}`))),
    ]);
    // Jobs' hashes kept without their lists (their ids: a row id and a digest, see batchJobId).
    const [, eventKeys] = await redis.scan(
      '0',
      'MATCH',
      `${prefix}:${QueueName.DomainEvents}:*`,
      'COUNT',
      100_000,
    );
    const jobKey = new RegExp(`^${prefix}:${QueueName.DomainEvents}:\\d+-[\\w-]{16}$`);
    expect(eventKeys.filter((key) => jobKey.test(key)).length).toBeGreaterThan(0);

    expect(refused).toEqual([]);
    expect(booked).toHaveLength(300);
    const missing = () => {
      const got = receivedIds();
      return booked.filter((id) => !got.has(id));
    };
    expect(missing().length).toBeGreaterThan(0);

    const workerUrl = await start('worker.ts');
    await eventually(() => (missing().length === 0 ? true : undefined), 120_000).catch(() => {
      throw new Error(`never delivered: ${JSON.stringify(missing())}`);
    });
    // The relay found the stuck jobs; each booking's webhook is one message (one webhook-id),
    // sent more than once only where the crash cut an attempt short (at least once).
    expect(
      sample(await scrape(workerUrl), 'outbox_jobs_requeued_total', { reason: 'stuck' }),
    ).toBeGreaterThan(0);
    const idsByAppointment = new Map<string, Set<string>>();
    for (const request of receiver.received(path)) {
      const id = new URLSearchParams(request.body).get('id')!;
      idsByAppointment.set(
        id,
        (idsByAppointment.get(id) ?? new Set()).add(header(request, 'webhook-id')!),
      );
    }
    expect([...idsByAppointment.values()].filter((ids) => ids.size !== 1)).toEqual([]);
  }, 240_000);
});
