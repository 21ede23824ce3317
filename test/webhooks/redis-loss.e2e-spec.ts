import { getQueueToken } from '@nestjs/bull';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Queue } from 'bull';
import { DataSource } from 'typeorm';
import { QueueName } from '../../src/common/queues/queue-names';
import { eventually } from '../support/eventually';
import { sample, scrape } from '../support/metrics';
import { startApi, startWorkerApp } from '../support/test-app';
import { testConfig } from '../support/test-environment';
import { Receiver } from './receiver';
import { type Booked, type Shop, book, openShop } from './shops';

/**
 * Part of Redis lost, one way at a time, as Bull's own scripts leave it: a job in no list (its
 * entry in `wait` deleted, its hash kept), a list entry without its hash, a job failed for good,
 * and the same for a webhook delivery's job. Each time, the booking's webhook still reaches a real
 * receiver on 127.0.0.1, and the worker's `/metrics` counts what the relay re-queued.
 *
 * API and worker run in-process on a queue prefix of this file's own, with a relay that looks at a
 * dispatched event again after 1 s and a sweeper after 1 s past due. To hold a job in Redis, the
 * worker stops taking jobs of that queue for a moment (Bull's local pause: the queue, the relay and
 * the sweeper go on), as a worker that died would.
 */
describe('Webhooks: no event is lost to a partial Redis loss (e2e)', () => {
  let app: NestFastifyApplication;
  let worker: NestFastifyApplication;
  let workerUrl: string;
  let db: DataSource;
  let receiver: Receiver;
  let events: Queue;
  let deliveries: Queue;

  beforeAll(async () => {
    const base = testConfig();
    const config = base.with({
      queue: { prefix: `${base.queue.prefix}:redis-loss` },
      outbox: { ...base.outbox, relayIntervalMs: 100, relayDelayMs: 500, redeliverAfterMs: 1000 },
      webhooks: { ...base.webhooks, sweepIntervalMs: 200, sweepGraceMs: 1000 },
    });
    app = await startApi({ config });
    db = app.get(DataSource);
    ({ worker, url: workerUrl } = await startWorkerApp({ config }));
    events = worker.get<Queue>(getQueueToken(QueueName.DomainEvents), { strict: false });
    deliveries = worker.get<Queue>(getQueueToken(QueueName.WebhookDeliveries), { strict: false });
    receiver = await Receiver.start();
  });

  afterAll(async () => {
    await worker?.close();
    await app?.close();
    await receiver?.close();
  });

  /** A shop whose `appointment.scheduled` webhooks go to `path` of the receiver. */
  async function subscribedShop(path: string): Promise<Shop> {
    const shop = await openShop(app);
    const { status } = await shop.api.post('/webhooks', {
      event: 'appointment.scheduled',
      target: receiver.url(path),
    });
    expect(status).toBe(200);
    return shop;
  }

  /** The ids of the booking's webhooks the receiver got on `path`. */
  const received = (path: string) =>
    receiver.received(path).map((r) => Number(new URLSearchParams(r.body).get('id')));

  /** Books while the worker takes no domain-events job; answers the job(s) of its events. */
  async function bookHeld(shop: Shop): Promise<{ booked: Booked; jobIds: string[] }> {
    await events.pause(true, true);
    const booked = await book(shop);
    const jobIds = await eventually(async () => {
      const rows = await db.query<{ job_id: string | null }[]>(
        'SELECT job_id FROM outbox WHERE account_id = ?',
        [shop.account.id],
      );
      return rows.length > 0 && rows.every((r) => r.job_id)
        ? rows.map((r) => r.job_id!)
        : undefined;
    });
    const unique = [...new Set(jobIds)];
    for (const id of unique) expect(await (await events.getJob(id))?.getState()).toBe('waiting');
    return { booked, jobIds: unique };
  }

  const requeued = async (reason: string) =>
    sample(await scrape(workerUrl), 'outbox_jobs_requeued_total', { reason });

  it('re-queues a job left in no list (stuck): the webhook arrives, counted as stuck', async () => {
    const path = '/stuck-event';
    const shop = await subscribedShop(path);
    const before = await requeued('stuck');
    const { booked, jobIds } = await bookHeld(shop);
    // Its entry in `wait` lost, its hash kept: Bull calls it stuck, and no worker will ever see it.
    for (const id of jobIds) await events.client.lrem(events.toKey('wait'), 0, id);
    for (const id of jobIds) expect(await (await events.getJob(id))!.getState()).toBe('stuck');
    await events.resume(true);

    await eventually(() => (received(path).includes(booked.id) ? true : undefined));
    expect(received(path)).toEqual([booked.id]);
    expect((await requeued('stuck')) - before).toBe(jobIds.length);
    // Added again under its own id (the same rows), and run to the end.
    for (const id of jobIds) expect(await (await events.getJob(id))!.getState()).toBe('completed');
  });

  it('re-queues a job whose hash was lost while its list entry stayed, counted as lost', async () => {
    const path = '/hashless-event';
    const shop = await subscribedShop(path);
    const before = await requeued('lost');
    const { booked, jobIds } = await bookHeld(shop);
    // The worker takes the entry and finds a hash of one field (what Bull's scripts leave): a job
    // of no name and no data, which fails. Retrying it would only fail it again.
    for (const id of jobIds) await events.client.del(events.toKey(id));
    await events.resume(true);

    await eventually(() => (received(path).includes(booked.id) ? true : undefined));
    expect(received(path)).toEqual([booked.id]);
    expect((await requeued('lost')) - before).toBeGreaterThanOrEqual(jobIds.length);
  });

  it('retries a job failed for good, counted as failed', async () => {
    const path = '/failed-event';
    const shop = await subscribedShop(path);
    const before = await requeued('failed');
    const { booked, jobIds } = await bookHeld(shop);
    for (const id of jobIds) {
      // Where Bull leaves a job whose tries are spent: in `failed` alone.
      await events.client.lrem(events.toKey('wait'), 0, id);
      await events.client.zadd(events.toKey('failed'), Date.now(), id);
      expect(await (await events.getJob(id))!.getState()).toBe('failed');
    }
    await events.resume(true);

    await eventually(() => (received(path).includes(booked.id) ? true : undefined));
    expect(received(path)).toEqual([booked.id]);
    expect((await requeued('failed')) - before).toBe(jobIds.length);
  });

  it('finds a delivery whose job is in no list again (the sweeper), and delivers it once', async () => {
    const path = '/stuck-delivery';
    const shop = await subscribedShop(path);
    await deliveries.pause(true, true);
    const booked = await book(shop);
    const [message] = await eventually(async () => {
      const rows = await db.query<{ id: string }[]>(
        "SELECT id FROM webhook_messages WHERE account_id = ? AND status = 'pending'",
        [shop.account.id],
      );
      return rows.length > 0 ? rows : undefined;
    });
    const jobId = `wh:${message.id}`;
    await eventually(async () =>
      (await (await deliveries.getJob(jobId))?.getState()) === 'waiting' ? true : undefined,
    );
    await deliveries.client.lrem(deliveries.toKey('wait'), 0, jobId);
    expect(await (await deliveries.getJob(jobId))!.getState()).toBe('stuck');
    await deliveries.resume(true);

    await eventually(() => (received(path).includes(booked.id) ? true : undefined));
    await eventually(async () => {
      const [row] = await db.query<{ status: string }[]>(
        'SELECT status FROM webhook_messages WHERE id = ?',
        [message.id],
      );
      return row.status === 'delivered' ? true : undefined;
    });
    expect(received(path)).toEqual([booked.id]);
  });
});
