import type { ChildProcess } from 'node:child_process';
import { DateTime } from 'luxon';
import { createConnection } from 'mysql2/promise';
import { eventually } from './support/eventually';
import { sample, scrape } from './support/metrics';
import { type Finished, runCli, startEntry, waitForStatus } from './support/processes';
import { basicAuth } from './support/test-app';
import { testConfig, testEnvVars } from './support/test-environment';
import { Receiver } from './webhooks/receiver';
import { seededRandom } from './support/seeded-random';

const REQUESTS = 300;
const CONCURRENCY = 16;
const CALENDARS = 6;
const ZONE = 'America/New_York';
const MONDAY = DateTime.fromISO('2030-06-03T09:00', { zone: ZONE });
/** Starts every 15 minutes over 4 hours, for a 30-minute type: neighbours overlap. */
const STARTS = 16;

/**
 * The service scaled out on one MySQL and one Redis, as pods run it: 2 API processes and 2
 * workers (the real entry points, child processes), a booking load spread over both APIs with many
 * requests competing for the same and overlapping times. Checked in MySQL: no calendar is double
 * booked, every 200 is one appointment; checked at a receiver on 127.0.0.1: every booking's
 * webhook arrives at least once, delivered by the two workers together.
 */
describe('Scale-out: 2 APIs and 2 workers on one MySQL and Redis (e2e)', () => {
  const children: { child: ChildProcess; exit: Promise<Finished> }[] = [];
  let receiver: Receiver;
  let env: NodeJS.ProcessEnv;
  const apiUrls: string[] = [];
  const workerUrls: string[] = [];

  beforeAll(async () => {
    receiver = await Receiver.start();
    const prefix = `${testConfig().queue.prefix}:scale`;
    env = testEnvVars({ QUEUE_PREFIX: prefix, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error' });
    const entries = ['main.ts', 'main.ts', 'worker.ts', 'worker.ts'] as const;
    const started = await Promise.all(entries.map((entry) => startEntry(entry, env)));
    for (const [n, { child, exit, url }] of started.entries()) {
      children.push({ child, exit });
      (entries[n] === 'main.ts' ? apiUrls : workerUrls).push(url);
    }
    await Promise.all(started.map(({ url }) => waitForStatus(`${url}/health/ready`, 200, 90_000)));
  }, 120_000);

  afterAll(async () => {
    for (const { child } of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const exits = await Promise.all(children.map((c) => c.exit));
    await receiver?.close();
    expect(exits.map((e) => e.code)).toEqual([0, 0, 0, 0]);
  }, 60_000);

  it('books without double booking and delivers every webhook at least once', async () => {
    const created = await runCli(
      ['account:create', '--email', `scale-${Date.now()}@example.test`, '--name', 'Scale'],
      env,
    );
    const account = created.result as { id: number; apiKey: string };
    const authorization = basicAuth(account.id, account.apiKey);
    let calls = 0;
    const call = async (path: string, body: unknown, method = 'POST') => {
      // Round robin over the API processes, as a load balancer would.
      const res = await fetch(`${apiUrls[calls++ % apiUrls.length]}/api/v1${path}`, {
        method,
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const created200 = async (path: string, body: unknown, method = 'POST') => {
      const res = await call(path, body, method);
      expect(res.status).toBe(200);
      return res.body.id as number;
    };
    const calendars: number[] = [];
    for (let i = 0; i < CALENDARS; i++)
      calendars.push(
        await created200('/calendars', {
          name: `Room ${i + 1}`,
          timezone: ZONE,
          hours: { monday: [{ start: '09:00', end: '17:00' }] },
        }),
      );
    const type = await created200('/appointment-types', {
      name: 'Visit',
      duration: 30,
      calendarIDs: calendars,
      maxDaysInAdvance: 3650,
    });
    const path = `/scale-${account.id}`;
    await created200('/webhooks', { event: 'appointment.scheduled', target: receiver.url(path) });
    // Webhooks only: no confirmation e-mail to an SMTP server the test does not run.
    await call('/settings', { sendConfirmationEmail: false, sendSms: false }, 'PUT');

    const deliveredBefore = await Promise.all(
      workerUrls.map(async (url) =>
        sample(await scrape(url), 'webhook_deliveries_total', { outcome: 'delivered' }),
      ),
    );
    const next = seededRandom(11);
    const booked: number[] = [];
    const refused: string[] = [];
    const unexpected: string[] = [];
    let sent = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (sent < REQUESTS) {
          sent++;
          // Half name a calendar, half let the service pick one: both must respect the locks.
          const pick = next();
          const datetime = MONDAY.plus({ minutes: 15 * Math.floor(next() * STARTS) });
          const res = await call('/appointments', {
            firstName: 'Ada',
            lastName: 'Lovelace',
            email: 'ada@example.com',
            appointmentTypeID: type,
            ...(pick < 0.5 ? { calendarID: calendars[Math.floor(pick * 2 * CALENDARS)] } : {}),
            datetime: datetime.toISO({ suppressMilliseconds: true, includeOffset: false }),
          });
          if (res.status === 200) booked.push(res.body.id as number);
          else if (res.status === 400) refused.push(res.body.error as string);
          else unexpected.push(`${res.status} ${JSON.stringify(res.body)}`);
        }
      }),
    );

    expect(unexpected).toEqual([]);
    expect(new Set(refused)).toEqual(new Set(['not_available', 'no_available_calendar']));
    expect(booked.length + refused.length).toBe(REQUESTS);
    expect(booked.length).toBeGreaterThan(CALENDARS * 4); // the load did book, a lot

    const { db } = testConfig();
    const mysql = await createConnection({
      host: db.host,
      port: db.port,
      user: db.user,
      password: db.password,
      database: db.name,
    });
    try {
      const [overlaps] = await mysql.query(
        `SELECT a.id, b.id AS other FROM appointments a
           JOIN appointments b ON b.calendar_id = a.calendar_id AND b.id > a.id
            AND b.busy_from < a.busy_until AND a.busy_from < b.busy_until
          WHERE a.account_id = ? AND a.canceled = 0 AND b.canceled = 0`,
        [account.id],
      );
      expect(overlaps).toEqual([]);
      const [[{ n }]] = (await mysql.query(
        'SELECT COUNT(*) AS n FROM appointments WHERE account_id = ?',
        [account.id],
      )) as unknown as [[{ n: number }]];
      expect(Number(n)).toBe(booked.length);
    } finally {
      await mysql.end();
    }

    const receivedIds = () =>
      new Set(receiver.received(path).map((r) => Number(new URLSearchParams(r.body).get('id'))));
    await eventually(
      () => (booked.every((id) => receivedIds().has(id)) ? true : undefined),
      90_000,
    );
    expect(receivedIds()).toEqual(new Set(booked));
    // The two workers delivered them together (each counts what it delivered).
    const deliveredAfter = await eventually(async () => {
      const counts = await Promise.all(
        workerUrls.map(async (url) =>
          sample(await scrape(url), 'webhook_deliveries_total', { outcome: 'delivered' }),
        ),
      );
      const total = counts.reduce((sum, c, i) => sum + c - deliveredBefore[i], 0);
      return total >= booked.length ? counts : undefined;
    });
    expect(deliveredAfter).toHaveLength(2);
  }, 240_000);
});
