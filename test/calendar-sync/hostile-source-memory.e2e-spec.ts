import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import { DataSource } from 'typeorm';
import { apiClient } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { eventually } from '../support/eventually';
import { type Finished, startEntry, waitForStatus } from '../support/processes';
import { createAccount, startApi } from '../support/test-app';
import { testConfig, testEnvVars } from '../support/test-environment';
import { Receiver } from '../webhooks/receiver';
import { utc, vcalendar, vevent } from './calendar-data';
import { CaldavServer } from './caldav-server';

const MB = 1024 * 1024;
/** What the hostile server offers: twenty times CALENDAR_SYNC_MAX_BYTES (10 MB by default). */
const HOSTILE_BYTES = 200 * MB;
/**
 * Where the hostile server waits, mid-answer, until the other account's webhook has arrived: under
 * the first megabyte, which a sync reads before it waits for its turn to read more (LargeReads).
 */
const HOLD_AT = MB / 2;
/** The worker's resident memory may grow by less than this, whatever a source sends. */
const RSS_GROWTH = 64 * MB;

/** A process's resident memory now (VmRSS), in bytes. */
function rss(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb) * 1024;
}

/**
 * One account's CalDAV server answers the worker with a 200 MB multistatus, to PROPFIND on one
 * source and to REPORT on another, streamed by a hand-written hostile server (never held whole,
 * here either). The worker, a process of its own (worker.ts, as deployed), cuts each answer at
 * CALENDAR_SYNC_MAX_BYTES: both sources end in `error` ("too large"), its resident memory grows by
 * less than 64 MB (its limit is 512Mi: deploy/worker-deployment.yaml), and while both answers are
 * still in flight it delivers another account's webhook.
 *
 * On a database and queue prefix of its own: the worker syncs every due source it finds, and
 * takes every job of its prefix.
 */
describe('Calendar sync: a hostile CalDAV server cannot take the worker down (e2e, worker process)', () => {
  const base = testConfig();
  const database = `${base.db.name.replace(/_test$/, '')}_hostile_test`;
  const config = base.with({
    db: { ...base.db, name: database, migrateOnStart: true },
    queue: { prefix: `${base.queue.prefix}:hostile` },
  });
  let app: NestFastifyApplication;
  let worker: ChildProcess | undefined;
  let workerExit: Promise<Finished> | undefined;
  let caldav: CaldavServer;
  let receiver: Receiver;
  let release: () => void = () => undefined;

  beforeAll(async () => {
    caldav = await CaldavServer.start();
    receiver = await Receiver.start();
    app = await startApi({ config });
    const started = await startEntry(
      'worker.ts',
      testEnvVars({
        DB_NAME: database,
        QUEUE_PREFIX: config.queue.prefix,
        CALENDAR_SYNC_SCAN_INTERVAL_MS: '200',
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
      }),
    );
    ({ child: worker, exit: workerExit } = started);
    await waitForStatus(`${started.url}/health/ready`, 200, 60_000);
  }, 120_000);

  afterAll(async () => {
    release();
    if (worker && worker.exitCode === null && worker.signalCode === null) {
      worker.kill('SIGTERM');
      await workerExit;
    }
    await app?.get(DataSource).query(`DROP DATABASE IF EXISTS \`${database}\``);
    await app?.close();
    await caldav?.close();
    await receiver?.close();
  }, 60_000);

  it('ends both sources in error, grows by less than 64 MB, and delivers a webhook meanwhile', async () => {
    const pid = worker!.pid!;
    // The other account: a webhook for its bookings, to a receiver on 127.0.0.1.
    const shop = apiClient(app, await createAccount(app));
    const shopCalendar = await createCalendar(shop, {
      timezone: 'UTC',
      hours: Object.fromEntries(
        ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
          d,
          [{ start: '00:00', end: '24:00' }],
        ]),
      ),
    });
    const shopType = await createAppointmentType(shop, {
      name: 'Visit',
      duration: 30,
      calendarIDs: [shopCalendar],
      maxDaysInAdvance: 30,
    });
    expect(
      (
        await shop.post('/webhooks', {
          event: 'appointment.scheduled',
          target: receiver.url('/shop'),
        })
      ).status,
    ).toBe(200);

    const tomorrow = DateTime.utc().plus({ days: 1 }).startOf('hour');
    /** Books the other account's calendar; waits for its webhook, the `nth` to arrive. */
    const bookAndDeliver = async (hours: number, nth: number) => {
      const booked = await shop.post('/appointments', {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.test',
        appointmentTypeID: shopType,
        calendarID: shopCalendar,
        datetime: tomorrow.plus({ hours }).toISO({ suppressMilliseconds: true }),
      });
      expect(booked.status).toBe(200);
      const delivery = await eventually(() => receiver.received('/shop')[nth - 1], 30_000);
      expect(new URLSearchParams(delivery.body).get('id')).toBe(String(booked.body.id));
    };

    // First, every part of the worker the test exercises, once (a booking's webhook, a good sync,
    // a failed one), so that what is measured after is what the hostile server costs.
    await bookAndDeliver(1, 1);
    const staff = apiClient(app, await createAccount(app));
    const calendar = await createCalendar(staff);
    const add = async (path: string): Promise<number> => {
      const res = await staff.post(`/calendars/${calendar}/busy-sources`, {
        type: 'caldav',
        url: caldav.url(path),
      });
      expect(res.status).toBe(200);
      return res.body.id as number;
    };
    const status = async (id: number) =>
      (await staff.get(`/calendars/${calendar}/busy-sources/${id}`)).body.status as {
        state: string;
        lastError: string | null;
      };
    caldav.collections.set('/warm/', {
      kind: 'calendar',
      ctag: 'w1',
      objects: [vcalendar([vevent(['UID:w', `DTSTART:${utc(tomorrow)}`, 'DURATION:PT1H'])])],
    });
    caldav.collections.set('/refusing/', { kind: 'status', status: 401 });
    const warm = [await add('/warm/'), await add('/refusing/')];
    await eventually(async () => ((await status(warm[0])).state === 'ok' ? true : undefined));
    await eventually(async () => ((await status(warm[1])).state === 'error' ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = rss(pid);

    // The hostile sources: each answer held mid-way until the webhook has arrived.
    const released = new Promise<void>((resolve) => (release = resolve));
    const hostile = ['/huge-propfind/', '/huge-report/'] as const;
    caldav.collections.set(hostile[0], {
      kind: 'huge',
      method: 'PROPFIND',
      bytes: HOSTILE_BYTES,
      holdAt: HOLD_AT,
      release: released,
    });
    caldav.collections.set(hostile[1], {
      kind: 'huge',
      method: 'REPORT',
      bytes: HOSTILE_BYTES,
      holdAt: HOLD_AT,
      release: released,
    });
    let peak = before;
    let settled: { state: string; lastError: string | null }[] = [];
    const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), 50);
    try {
      const held = (p: string) => {
        const streamed = caldav.streamed.get(p);
        return streamed !== undefined && streamed.written >= HOLD_AT && !streamed.clientLeft;
      };
      const inFlight = () => hostile.every(held);
      // The second source is added while the first is held: a slow source holds its own slot of
      // the worker, not its next pass (each would otherwise wait out the other's timeout).
      const sources = [await add(hostile[0])];
      await eventually(() => (held(hostile[0]) ? true : undefined), 20_000);
      sources.push(await add(hostile[1]));
      await eventually(() => (inFlight() ? true : undefined), 20_000);

      await bookAndDeliver(2, 2);
      // Delivered while both hostile answers were still being read.
      expect(inFlight()).toBe(true);
      release();

      settled = await Promise.all(
        sources.map((id) =>
          eventually(async () => {
            const s = await status(id);
            return s.state === 'pending' ? undefined : s;
          }, 60_000),
        ),
      );
    } finally {
      clearInterval(sampler);
      release();
    }
    const after = rss(pid);
    if (process.env.MEASURE)
      console.log({ before, peak, after, grewBy: Math.max(peak, after) - before });
    expect(Math.max(peak, after) - before).toBeLessThan(RSS_GROWTH);
    const tooLarge = { state: 'error', lastError: 'The calendar is too large.' };
    expect(settled.map(({ state, lastError }) => ({ state, lastError }))).toEqual([
      tooLarge,
      tooLarge,
    ]);
    for (const path of hostile) {
      const streamed = caldav.streamed.get(path)!;
      // The worker stopped reading and went: what was written is the bound and the sockets' buffers.
      expect(streamed).toMatchObject({ ended: false, clientLeft: true });
      expect(streamed.written).toBeLessThan(config.calendarSync.maxBytes + 16 * MB);
    }
    expect(worker!.exitCode).toBeNull();
  }, 240_000);
});
