import { Agent, type IncomingHttpHeaders, request } from 'node:http';
import { getQueueToken } from '@nestjs/bull';
import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import Bull, { type Queue } from 'bull';
import { DateTime } from 'luxon';
import { DataSource } from 'typeorm';
import { closeGracefully } from '../src/app/shutdown';
import { type DomainEventBatch, DomainEvent } from '../src/common/outbox/domain-event';
import type { DomainEventConsumer } from '../src/common/outbox/domain-event-consumer';
import { DomainEventType } from '../src/common/outbox/domain-event-types';
import { DomainEventPublisher } from '../src/common/outbox/domain-event-publisher';
import { batchJobId } from '../src/common/outbox/outbox-dispatcher';
import { Outbox } from '../src/common/outbox/outbox.repository';
import { QueueName } from '../src/common/queues/queue-names';
import { Public } from '../src/common/http/public.decorator';
import { apiClient } from './support/api-client';
import { createAppointmentType, createCalendar } from './support/catalog-fixtures';
import { eventually } from './support/eventually';
import { everyTypeTo } from './support/domain-events';
import { runCli, startEntry, waitForStatus } from './support/processes';
import { basicAuth, createAccount, startApi, startWorkerApp } from './support/test-app';
import { testConfig, testEnvVars } from './support/test-environment';
import { Receiver, header } from './webhooks/receiver';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

@Public()
// A test's own route: not the API's, so not in its document (the contract check skips it).
@ApiExcludeController()
@Controller('probe')
class SlowController {
  @Get('slow')
  async slow(): Promise<{ done: true }> {
    await sleep(600);
    return { done: true };
  }
}

/** Of any type: the worker under test gives every type to the slow consumer alone. */
class SlowThingEvent extends DomainEvent {
  readonly type = DomainEventType.AppointmentChanged;

  constructor(accountId: number, payload: { n: number }) {
    // A payload of the test's own: the consumers under test read nothing else.
    super(accountId, payload as never);
  }
}

class SlowConsumer implements DomainEventConsumer {
  started: number | undefined;
  finished: number | undefined;

  async handle(): Promise<void> {
    this.started = Date.now();
    await sleep(800);
    this.finished = Date.now();
  }
}

interface Answered {
  status: number;
  headers: IncomingHttpHeaders;
}

/** One GET over a keep-alive agent (as a client's connection pool would send it). */
function get(agent: Agent, url: string, headers: Record<string, string> = {}): Promise<Answered> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The Bull queue of a prefix, from outside the processes (counts only). */
function queueOf(name: QueueName, prefix: string): Queue {
  const { redis } = testConfig();
  return new Bull(name, { redis: { host: redis.host, port: redis.port }, prefix });
}

/** What SIGTERM does (closeGracefully), on the real API and worker modules and processes. */
describe('Graceful stop (e2e)', () => {
  it('API: finishes the request in flight, refuses new connections, closes the pools', async () => {
    const app = await startApi({ controllers: [SlowController] });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    const base = `http://127.0.0.1:${port}`;

    const inFlight = fetch(`${base}/api/v1/probe/slow`);
    await sleep(150); // the request is being served
    const started = Date.now();
    const closed = closeGracefully(app);
    await sleep(50);
    await expect(fetch(`${base}/health/live`)).rejects.toThrow();

    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    await closed;
    // The client keeps its connection alive: the stop must not wait for it to go away.
    expect(Date.now() - started).toBeLessThan(3000);
    expect(app.get(DataSource).isInitialized).toBe(false);
  });

  it('worker: finishes the job in flight before it stops, and the job is completed', async () => {
    const base = testConfig();
    const config = base.with({ queue: { prefix: `${base.queue.prefix}:shutdown` } });
    const consumer = new SlowConsumer();
    const { worker } = await startWorkerApp({ config, consumers: everyTypeTo(consumer) });
    await worker.get<Queue>(getQueueToken(QueueName.DomainEvents)).isReady();

    const db = worker.get(DataSource);
    const pending = await db.transaction((tx) =>
      Outbox.record(tx, [new SlowThingEvent(1, { n: 1 })]),
    );
    worker.get(DomainEventPublisher).publishAfterCommit(pending);
    await eventually(() => consumer.started);

    await closeGracefully(worker);
    const stoppedAt = Date.now();
    expect(consumer.finished).toBeDefined();
    expect(consumer.finished!).toBeLessThanOrEqual(stoppedAt);

    const queue = new Bull<DomainEventBatch>(QueueName.DomainEvents, {
      redis: { host: config.redis.host, port: config.redis.port },
      prefix: config.queue.prefix,
    });
    try {
      // The only event this worker's publisher handed over: a job of its own.
      const job = await queue.getJob(batchJobId([pending.records[0].id]));
      expect(await job?.getState()).toBe('completed');
    } finally {
      await queue.close();
    }
  });

  /**
   * The real API process under load, stopped by SIGTERM as Kubernetes stops a pod: the test plays
   * the load balancer too (it polls /health/ready and sends no new request once it answers 503). No
   * request may fail: those sent during the drain are answered (with `Connection: close`), and the
   * listener closes only after the drain.
   */
  it('API process under load: not ready from SIGTERM on, serves through the drain, then stops; no request fails', async () => {
    const DRAIN_MS = 3000;
    const env = testEnvVars({
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
      LOG_LEVEL: 'info',
    });
    const created = await runCli(
      ['account:create', '--email', `drain-${Date.now()}@example.test`, '--name', 'Drain'],
      env,
    );
    const account = created.result as { id: number; apiKey: string };
    const authorization = basicAuth(account.id, account.apiKey);

    const { child: api, url: base, exit } = await startEntry('main.ts', env);
    await waitForStatus(`${base}/health/ready`, 200, 60_000);

    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const failures: string[] = [];
    const answers: { sentAt: number; status: number; connection: string | undefined }[] = [];
    let outOfRotation = false;
    const client = async () => {
      while (!outOfRotation) {
        const sentAt = Date.now();
        try {
          const res = await get(agent, `${base}/api/v1/me`, { authorization });
          answers.push({ sentAt, status: res.status, connection: res.headers.connection });
        } catch (e) {
          failures.push(`${(e as NodeJS.ErrnoException).code ?? String(e)} (sent at ${sentAt})`);
        }
      }
    };
    const clients = Array.from({ length: 8 }, client);

    // The load balancer's probe, as Kubernetes' readiness probe: every 500 ms on a connection of
    // its own, out of rotation after 2 failures in a row (traffic goes on meanwhile).
    const probe = new Agent({ keepAlive: false });
    let sigtermAt = 0;
    let removedAt = 0;
    const balancer = (async () => {
      let notReady = 0;
      while (!outOfRotation) {
        await sleep(500);
        const ready = await get(probe, `${base}/health/ready`);
        if (sigtermAt > 0 && ready.status === 503) {
          if (++notReady === 2) {
            removedAt = Date.now();
            outOfRotation = true;
          }
        } else if (ready.status !== 200) {
          failures.push(`ready answered ${ready.status} before SIGTERM`);
        }
      }
    })();

    await sleep(1000); // under load
    sigtermAt = Date.now();
    api.kill('SIGTERM');
    await Promise.all([balancer, ...clients]);
    const stopped = await exit;
    agent.destroy();

    expect(failures).toEqual([]);
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toContain('"msg":"stopped"');
    // Out of rotation well within the drain, while the process still served.
    expect(removedAt - sigtermAt).toBeLessThan(DRAIN_MS);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const beforeSigterm = answers.filter((a) => a.sentAt < sigtermAt - 100);
    const duringDrain = answers.filter((a) => a.sentAt > sigtermAt + 100);
    expect(beforeSigterm.length).toBeGreaterThan(0);
    expect(beforeSigterm.every((a) => a.connection !== 'close')).toBe(true);
    // Requests sent after SIGTERM were still answered, each telling its client to reconnect.
    expect(duringDrain.length).toBeGreaterThan(0);
    expect(duringDrain.every((a) => a.connection === 'close')).toBe(true);
    // After the drain the listener is closed: new connections are refused.
    await expect(fetch(`${base}/health/live`)).rejects.toThrow();
  }, 120_000);

  /**
   * The real worker process, stopped by SIGTERM with webhook deliveries in flight to a slow
   * receiver: it exits once those have been answered and recorded; the jobs it had not begun wait
   * in the queue; a new worker delivers them. Every event reaches the receiver exactly once.
   */
  it('worker process with deliveries in flight: they finish, the rest stay queued, a restart delivers them; none lost, none twice', async () => {
    const BOOKINGS = 250;
    const base = testConfig();
    const prefix = `${base.queue.prefix}:sigterm`;
    const config = base.with({ queue: { prefix } });
    const app = await startApi({ config });
    const receiver = await Receiver.start();
    const env = testEnvVars({ QUEUE_PREFIX: prefix, LOG_LEVEL: 'info' });
    const startWorkerProcess = async () => {
      const { child, url, exit } = await startEntry('worker.ts', env);
      await waitForStatus(`${url}/health/ready`, 200, 60_000);
      return { child, exit };
    };
    try {
      const account = await createAccount(app);
      const api = apiClient(app, account);
      const zone = 'America/New_York';
      const calendar = await createCalendar(api, {
        timezone: zone,
        hours: { monday: [{ start: '00:00', end: '24:00' }] },
      });
      const type = await createAppointmentType(api, {
        duration: 15,
        calendarIDs: [calendar],
        maxDaysInAdvance: 3650,
      });
      const path = `/sigterm-${account.id}`;
      receiver.answer(path, { status: 200, delayMs: 1500 });
      const subscribed = await api.post('/webhooks', {
        event: 'appointment.scheduled',
        target: receiver.url(path),
      });
      expect(subscribed.status).toBe(200);
      const monday = DateTime.fromISO('2030-06-03T00:00', { zone });
      for (let n = 0; n < BOOKINGS; n++) {
        const datetime = monday.plus({ weeks: Math.floor(n / 96), minutes: 15 * (n % 96) });
        const res = await api.post('/appointments', {
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: 'ada@example.com',
          appointmentTypeID: type,
          calendarID: calendar,
          datetime: datetime.toISO({ suppressMilliseconds: true }),
        });
        expect(res.status).toBe(200);
      }

      const db = app.get(DataSource);
      const delivered = async () => {
        const [{ n }] = await db.query<{ n: string }[]>(
          `SELECT COUNT(*) AS n FROM webhook_messages m
             JOIN webhook_subscriptions s ON s.id = m.subscription_id
            WHERE s.account_id = ? AND m.status = 'delivered'`,
          [account.id],
        );
        return Number(n);
      };
      const uniqueIds = () => new Set(receiver.received(path).map((r) => header(r, 'webhook-id')));

      // First worker: stopped once many deliveries wait on the receiver's answers.
      const first = await startWorkerProcess();
      await eventually(() => (receiver.received(path).length >= 50 ? true : undefined), 60_000);
      first.child.kill('SIGTERM');
      const stopped = await first.exit;
      expect(stopped.code).toBe(0);
      expect(stopped.stdout).toContain('"msg":"stopped"');

      // Everything the receiver had been sent was answered and recorded before the exit.
      const sentBeforeStop = receiver.received(path).length;
      expect(await delivered()).toBe(sentBeforeStop);
      const deliveries = queueOf(QueueName.WebhookDeliveries, prefix);
      const events = queueOf(QueueName.DomainEvents, prefix);
      try {
        const [d, e] = [await deliveries.getJobCounts(), await events.getJobCounts()];
        // Nothing was left half-done (active jobs would come back only after their lock expired).
        expect({ deliveries: d.active, events: e.active }).toEqual({ deliveries: 0, events: 0 });
        expect({ deliveries: d.failed, events: e.failed }).toEqual({ deliveries: 0, events: 0 });
        // The rest waits in the queues: not every event had been delivered. (Deliveries put off
        // for fairness, the receiver's limit full, wait in `delayed`.)
        expect(sentBeforeStop).toBeLessThan(BOOKINGS);
        expect(d.waiting + d.delayed + e.waiting).toBeGreaterThan(0);

        // A new worker delivers the rest.
        const second = await startWorkerProcess();
        await eventually(async () => ((await delivered()) === BOOKINGS ? true : undefined), 90_000);
        second.child.kill('SIGTERM');
        expect((await second.exit).code).toBe(0);

        expect(uniqueIds().size).toBe(BOOKINGS);
        expect(receiver.received(path)).toHaveLength(BOOKINGS); // none twice
        const [d2, e2] = [await deliveries.getJobCounts(), await events.getJobCounts()];
        expect([d2.waiting, d2.active, d2.failed, e2.waiting, e2.active, e2.failed]).toEqual([
          0, 0, 0, 0, 0, 0,
        ]);
      } finally {
        await deliveries.close();
        await events.close();
      }
    } finally {
      await app.close();
      await receiver.close();
    }
  }, 240_000);
});
