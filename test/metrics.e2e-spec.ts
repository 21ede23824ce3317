import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import { DataSource } from 'typeorm';
import { MetricsServer } from '../src/common/metrics/metrics-server';
import { QueueName } from '../src/common/queues/queue-names';
import { type ApiClient, apiClient } from './support/api-client';
import { createAppointmentType, createCalendar } from './support/catalog-fixtures';
import { eventually } from './support/eventually';
import { hasSeries, sample, scrape } from './support/metrics';
import { createAccount, startApi, startWorkerApp } from './support/test-app';
import { testConfig } from './support/test-environment';
import { scenario } from './calendar-sync/calendar-data';
import { IcsServer } from './calendar-sync/ics-server';
import { Receiver } from './webhooks/receiver';

const ZONE = 'America/New_York';
const MONDAY = DateTime.fromISO('2030-06-03T09:00', { zone: ZONE });
const at = (minutes: number) =>
  MONDAY.plus({ minutes }).toISO({ suppressMilliseconds: true, includeOffset: false });

/**
 * The metrics move with what happens: the API (in-process, its /metrics listener on a free port)
 * books and refuses, the worker (in-process, HTTP included) delivers to receivers on 127.0.0.1;
 * both are scraped before and after, as Prometheus would.
 *
 * On a database of its own (created and migrated at start, dropped after): the outbox lag is a
 * fact of the whole database, and the other suites of the run leave events behind that no worker
 * of theirs processes (API-only suites), older than this suite's probe.
 */
describe('Metrics (e2e)', () => {
  const database = `${testConfig().db.name.replace(/_test$/, '')}_metrics_test`;
  let app: NestFastifyApplication;
  let worker: NestFastifyApplication;
  let workerUrl: string;
  let apiMetricsUrl: string;
  let receiver: Receiver;
  let ics: IcsServer;

  beforeAll(async () => {
    const base = testConfig();
    const config = base.with({
      db: { ...base.db, name: database, migrateOnStart: true },
      queue: { prefix: `${base.queue.prefix}:metrics` },
      // The worker's calendar sync looks for due sources often here.
      calendarSync: { ...base.calendarSync, scanIntervalMs: 200 },
    });
    app = await startApi({ config });
    const port = await app.get(MetricsServer).listen(0, '127.0.0.1');
    apiMetricsUrl = `http://127.0.0.1:${port}`;
    ({ worker, url: workerUrl } = await startWorkerApp({ config }));
    receiver = await Receiver.start();
    ics = await IcsServer.start();
  });

  afterAll(async () => {
    await worker?.close();
    await app?.get(DataSource).query(`DROP DATABASE IF EXISTS \`${database}\``);
    await app?.close();
    await receiver?.close();
    await ics?.close();
  });

  it('serves the API’s metrics on their own port, and nothing else there', async () => {
    const text = await scrape(apiMetricsUrl);
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain('# TYPE bookings_total counter');
    expect(text).toContain('# TYPE process_cpu_seconds_total counter');
    const other = await fetch(`${apiMetricsUrl}/api/v1/me`);
    expect(other.status).toBe(404);
    // The API's own port does not serve them.
    const onApi = await app.inject({ method: 'GET', url: '/metrics' });
    expect(onApi.statusCode).toBe(404);
  });

  it('counts bookings and conflicts, and times requests by route pattern, never by raw URL', async () => {
    const account = await createAccount(app);
    const api: ApiClient = apiClient(app, account);
    const calendar = await createCalendar(api, {
      timezone: ZONE,
      hours: { monday: [{ start: '09:00', end: '17:00' }] },
    });
    const type = await createAppointmentType(api, {
      duration: 30,
      calendarIDs: [calendar],
      maxDaysInAdvance: 3650,
    });
    const book = (minutes: number) =>
      api.post('/appointments', {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: at(minutes),
      });

    const before = await scrape(apiMetricsUrl);
    const first = await book(0);
    expect(first.status).toBe(200);
    expect((await book(60)).status).toBe(200);
    const taken = await book(0);
    expect(taken.status).toBe(400);
    expect(taken.body.error).toBe('not_available');
    expect((await api.get(`/appointments/${first.body.id}`)).status).toBe(200);
    expect((await api.get('/no-such-thing')).status).toBe(404);
    const after = await scrape(apiMetricsUrl);

    const moved = (name: string, labels: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(moved('bookings_total', { outcome: 'booked' })).toBe(2);
    expect(moved('bookings_total', { outcome: 'conflict' })).toBe(1);
    const bookings = { method: 'POST', route: '/api/v1/appointments' };
    expect(moved('http_request_duration_seconds_count', { ...bookings, status_code: '200' })).toBe(
      2,
    );
    expect(moved('http_request_duration_seconds_count', { ...bookings, status_code: '400' })).toBe(
      1,
    );
    // The appointment's id is not a label: its route pattern is.
    expect(after).not.toContain(`/appointments/${first.body.id}"`);
    expect(
      moved('http_request_duration_seconds_count', { method: 'GET', status_code: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      moved('http_request_duration_seconds_count', {
        method: 'GET',
        route: '(unmatched)',
        status_code: '404',
      }),
    ).toBe(1);
  });

  it('counts webhook deliveries by outcome, times jobs per queue, reports queue depth and outbox lag', async () => {
    const account = await createAccount(app);
    const api = apiClient(app, account);
    const calendar = await createCalendar(api, {
      timezone: ZONE,
      hours: { monday: [{ start: '09:00', end: '17:00' }] },
    });
    const type = await createAppointmentType(api, {
      duration: 30,
      calendarIDs: [calendar],
      maxDaysInAdvance: 3650,
    });
    const ok = `/ok-${account.id}`;
    const broken = `/broken-${account.id}`;
    const gone = `/gone-${account.id}`;
    receiver.answer(broken, { status: 500 });
    receiver.answer(gone, { status: 410 });
    for (const path of [ok, broken, gone]) {
      const res = await api.post('/webhooks', {
        event: 'appointment.scheduled',
        target: receiver.url(path),
      });
      expect(res.status).toBe(200);
    }

    const before = await scrape(workerUrl);
    for (const minutes of [0, 60]) {
      const res = await api.post('/appointments', {
        firstName: 'Grace',
        lastName: 'Hopper',
        email: 'grace@example.com',
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: at(minutes),
      });
      expect(res.status).toBe(200);
    }
    await eventually(() =>
      receiver.received(ok).length === 2 &&
      receiver.received(broken).length >= 2 &&
      receiver.received(gone).length === 2
        ? true
        : undefined,
    );

    const moved = (text: string, name: string, labels: Record<string, string>) =>
      sample(text, name, labels) - sample(before, name, labels);
    const jobs = (text: string, queue: QueueName, status: string) =>
      moved(text, 'queue_job_duration_seconds_count', { queue, status });
    // What the worker reports once these have run (the wait fails the test if it never does).
    // Recorded attempts are counted once recorded, a moment after the receiver answered; a job's
    // run is timed when Bull reports it finished, a moment after its attempt was recorded.
    const after = await eventually(async () => {
      const text = await scrape(workerUrl);
      return moved(text, 'webhook_deliveries_total', { outcome: 'delivered' }) === 2 &&
        moved(text, 'webhook_deliveries_total', { outcome: 'failed' }) === 2 &&
        moved(text, 'webhook_deliveries_total', { outcome: 'retrying' }) >= 2 &&
        // Two bookings, two events each (scheduled, changed), carried by the domain-events
        // queue's jobs (a job carries the events handed over together: one or two jobs here).
        jobs(text, QueueName.DomainEvents, 'completed') >= 1 &&
        // Delivered jobs complete; the failed (410) and retried (500) attempts fail their run.
        jobs(text, QueueName.WebhookDeliveries, 'completed') >= 2 &&
        jobs(text, QueueName.WebhookDeliveries, 'failed') >= 4
        ? text
        : undefined;
    });

    // The 500s wait for their retry (2 s on the contract's ladder): delayed jobs of the queue.
    for (const queue of Object.values(QueueName))
      for (const state of ['waiting', 'active', 'delayed', 'failed'])
        expect(hasSeries(after, 'queue_jobs', { queue, state })).toBe(true);
    const delayed = await eventually(async () => {
      const text = await scrape(workerUrl);
      const value = sample(text, 'queue_jobs', {
        queue: QueueName.WebhookDeliveries,
        state: 'delayed',
      });
      return value >= 2 ? value : undefined;
    }, 20_000);
    expect(delayed).toBeGreaterThanOrEqual(2);

    for (const stage of ['undispatched', 'unprocessed'])
      expect(hasSeries(after, 'outbox_lag_seconds', { stage })).toBe(true);
  });

  it('reports the age of the oldest unprocessed outbox row', async () => {
    const db = app.get(DataSource);
    const hourAgo = new Date(Date.now() - 3600_000);
    // Handed to the queue just now (the relay leaves it alone for OUTBOX_REDELIVER_AFTER_MS) but
    // written an hour ago and never processed: an event stuck for an hour.
    const { insertId } = await db.query<{ insertId: number }>(
      `INSERT INTO outbox (account_id, type, payload, created_at, dispatched_at)
       VALUES (NULL, 'metrics.probe', '{}', ?, ?)`,
      [hourAgo, new Date()],
    );
    try {
      const lag = await eventually(async () => {
        const value = sample(await scrape(workerUrl), 'outbox_lag_seconds', {
          stage: 'unprocessed',
        });
        return value >= 3600 ? value : undefined;
      }, 20_000);
      expect(lag).toBeLessThan(3600 + 120);
    } finally {
      await db.query('DELETE FROM outbox WHERE id = ?', [insertId]);
    }
  });

  it('reads a new busy source in the worker, and counts it: sources by state, syncs, events read', async () => {
    ics.files.set('/staff.ics', { body: scenario().feed });
    const api = apiClient(app, await createAccount(app));
    const calendar = await createCalendar(api);
    const before = await scrape(workerUrl);
    const created = await api.post(`/calendars/${calendar}/busy-sources`, {
      type: 'ics',
      url: `${ics.url}/staff.ics`,
    });
    expect(created.status).toBe(200);
    const status = await eventually(async () => {
      const res = await api.get(`/calendars/${calendar}/busy-sources/${created.body.id}`);
      const { status } = res.body as { status: { state: string } };
      return status.state === 'pending' ? undefined : status;
    }, 20_000);
    expect(status).toMatchObject({ state: 'ok', eventsRead: 5, lastError: null });
    // The status is committed before the sync's counters move (the account's epoch is bumped in
    // between): scraped until they have, as Prometheus would see them a moment later.
    const after = await eventually(async () => {
      const text = await scrape(workerUrl);
      const read = sample(text, 'calendar_syncs_total', { type: 'ics', outcome: 'read' });
      return read > sample(before, 'calendar_syncs_total', { type: 'ics', outcome: 'read' })
        ? text
        : undefined;
    }, 20_000);
    const grew = (name: string, labels: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(grew('calendar_syncs_total', { type: 'ics', outcome: 'read' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(grew('calendar_sync_events_read_total', { type: 'ics' })).toBeGreaterThanOrEqual(5);
    expect(grew('calendar_sync_duration_seconds_count', { type: 'ics' })).toBeGreaterThanOrEqual(1);
    // Counted on scrape, at most every 5 s.
    const counted = await eventually(async () => {
      const text = await scrape(workerUrl);
      return sample(text, 'calendar_busy_sources', { state: 'ok' }) >= 1 ? text : undefined;
    }, 20_000);
    expect(hasSeries(counted, 'calendar_busy_sources', { state: 'error' })).toBe(true);
  });
});
