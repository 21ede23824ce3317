import type { ChildProcess } from 'node:child_process';
import { DateTime } from 'luxon';
import { createConnection } from 'mysql2/promise';
import { eventually } from '../support/eventually';
import { type Finished, runCli, startEntry, waitForStatus } from '../support/processes';
import { PrivateRedis } from '../support/redis-server';
import { basicAuth } from '../support/test-app';
import { testConfig, testEnvVars } from '../support/test-environment';
import { Receiver, header, signatureProblem } from './receiver';

const BOOKINGS = 200;
const BOOKED_WHILE_REDIS_IS_DOWN = 20;
const ZONE = 'America/New_York';
const FIRST_SLOT = DateTime.fromISO('2030-06-03T00:00', { zone: ZONE }); // a Monday

/**
 * The outbox is the truth: the worker is killed (SIGKILL) while deliveries are in flight, Redis is
 * then lost entirely (killed and started again empty) while bookings go on, and a new worker still
 * delivers every booking's `scheduled` event at least once. API and worker run as the real entry
 * points in child processes, on a Redis of this test's own.
 */
describe('Webhooks: a worker crash and an empty Redis lose no delivery (e2e)', () => {
  let redis: PrivateRedis;
  let receiver: Receiver;
  let api: ChildProcess | undefined;
  let worker: ChildProcess | undefined;
  let apiExit: Promise<Finished> | undefined;
  let workerExit: Promise<Finished> | undefined;
  let env: NodeJS.ProcessEnv;
  let apiUrl: string;

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    receiver = await Receiver.start();
    env = testEnvVars({
      REDIS_PORT: String(redis.port),
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
      OUTBOX_RELAY_INTERVAL_MS: '200',
      OUTBOX_RELAY_DELAY_MS: '1000',
      OUTBOX_REDELIVER_AFTER_MS: '2000',
      WEBHOOK_SWEEP_INTERVAL_MS: '500',
      WEBHOOK_SWEEP_GRACE_MS: '2000',
    });
    const started = await startEntry('main.ts', env);
    ({ child: api, url: apiUrl, exit: apiExit } = started);
    const workerUrl = await startWorker();
    await waitForStatus(`${apiUrl}/health/ready`, 200, 60_000);
    await waitForStatus(`${workerUrl}/health/ready`, 200, 60_000);
  }, 90_000);

  afterAll(async () => {
    await redis?.start(); // lets the processes stop cleanly
    for (const [child, exit] of [
      [worker, workerExit],
      [api, apiExit],
    ] as const) {
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exit;
      }
    }
    await receiver?.close();
    await redis?.stop();
  }, 60_000);

  async function startWorker(): Promise<string> {
    const started = await startEntry('worker.ts', env);
    ({ child: worker, exit: workerExit } = started);
    return started.url;
  }

  async function call(
    authorization: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<Record<string, unknown>> {
    const res = await fetch(`${apiUrl}/api/v1${path}`, {
      method,
      headers: { authorization, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  }

  it('delivers every event at least once after the worker is killed mid-flight and Redis restarts empty', async () => {
    const created = await runCli(
      ['account:create', '--email', `crash-${Date.now()}@example.test`, '--name', 'Crash'],
      env,
    );
    const account = created.result as { id: number; apiKey: string };
    expect(account.id).toEqual(expect.any(Number));
    const auth = basicAuth(account.id, account.apiKey);
    const calendar = (
      await call(auth, 'POST', '/calendars', {
        name: 'Room',
        timezone: ZONE,
        hours: { monday: [{ start: '00:00', end: '24:00' }] },
      })
    ).id as number;
    const type = (
      await call(auth, 'POST', '/appointment-types', {
        name: 'Visit',
        duration: 15,
        calendarIDs: [calendar],
        maxDaysInAdvance: 3650,
      })
    ).id as number;
    const path = `/crash-${account.id}`;
    // Slow answers keep many deliveries in flight when the worker dies.
    receiver.answer(path, { status: 200, delayMs: 400 });
    await call(auth, 'POST', '/webhooks', {
      event: 'appointment.scheduled',
      target: receiver.url(path),
    });

    const booked: number[] = [];
    let next = 0;
    const bookOne = async (): Promise<void> => {
      const n = next++;
      const datetime = FIRST_SLOT.plus({ weeks: Math.floor(n / 96), minutes: 15 * (n % 96) });
      const appointment = await call(auth, 'POST', '/appointments', {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: datetime.toISO({ suppressMilliseconds: true }),
      });
      booked.push(appointment.id as number);
    };
    /** Books `count` more appointments, 8 at a time. */
    const bookMore = async (count: number): Promise<void> => {
      const until = next + count;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < until) await bookOne();
        }),
      );
    };

    const booking = bookMore(BOOKINGS);
    // Deliveries are flowing, and more are in flight: the worker dies.
    await eventually(() => (receiver.received(path).length >= 30 ? true : undefined), 60_000);
    worker!.kill('SIGKILL');
    const killed = await workerExit!;
    expect(killed.signal).toBe('SIGKILL');
    await booking;

    // Redis is lost with every job in it; bookings go on meanwhile (the outbox keeps them).
    await redis.stop();
    await bookMore(BOOKED_WHILE_REDIS_IS_DOWN);
    await redis.start();
    expect(booked).toHaveLength(BOOKINGS + BOOKED_WHILE_REDIS_IS_DOWN);
    const missing = () => {
      const got = new Set(
        receiver.received(path).map((r) => Number(new URLSearchParams(r.body).get('id'))),
      );
      return booked.filter((id) => !got.has(id));
    };
    // Without a worker, much is still undelivered (claimed by the dead one, lost with Redis, or
    // never queued).
    expect(missing().length).toBeGreaterThan(BOOKED_WHILE_REDIS_IS_DOWN);

    await startWorker();
    await eventually(() => (missing().length === 0 ? true : undefined), 90_000).catch(() => {
      throw new Error(`never delivered: ${JSON.stringify(missing())}`);
    });

    // Every request was a real, signed notification of this subscription; duplicates only from
    // attempts cut short by the crash (at least once), each carrying its message's webhook-id.
    const got = receiver.received(path);
    for (const request of got) expect(signatureProblem(request, account.apiKey)).toBeNull();
    const idsByAppointment = new Map<string, Set<string>>();
    for (const request of got) {
      const id = new URLSearchParams(request.body).get('id')!;
      const ids = idsByAppointment.get(id) ?? new Set<string>();
      ids.add(header(request, 'webhook-id')!);
      idsByAppointment.set(id, ids);
    }
    expect([...idsByAppointment.values()].every((ids) => ids.size === 1)).toBe(true);

    // And MySQL agrees: one message per event, every one delivered.
    const { db } = testConfig();
    const connection = await createConnection({
      host: db.host,
      port: db.port,
      user: db.user,
      password: db.password,
      database: db.name,
    });
    try {
      await eventually(async () => {
        const [rows] = await connection.query(
          `SELECT status, COUNT(*) AS n FROM webhook_messages WHERE account_id = ?
              GROUP BY status`,
          [account.id],
        );
        const counts = Object.fromEntries(
          (rows as { status: string; n: number }[]).map((r) => [r.status, Number(r.n)]),
        );
        return counts.delivered === booked.length && Object.keys(counts).length === 1
          ? true
          : undefined;
      }, 30_000);
    } finally {
      await connection.end();
    }
  }, 240_000);
});
