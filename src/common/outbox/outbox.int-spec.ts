import { getQueueToken } from '@nestjs/bull';
import { Test, type TestingModule } from '@nestjs/testing';
import type { Queue } from 'bull';
import { DataSource } from 'typeorm';
import { eventually } from '../../../test/support/eventually';
import { PrivateRedis } from '../../../test/support/redis-server';
import { everyTypeTo } from '../../../test/support/domain-events';
import { testConfig } from '../../../test/support/test-environment';
import { WorkerModule } from '../../app/worker.module';
import { createRootLogger } from '../logging/logging.module';
import { QueueName } from '../queues/queue-names';
import { type DomainEventBatch, DomainEvent, type RecordedEvent } from './domain-event';
import { DOMAIN_EVENT_CONSUMERS, type DomainEventConsumer } from './domain-event-consumer';
import { DomainEventType } from './domain-event-types';
import { DomainEventPublisher } from './domain-event-publisher';
import { EVENTS_JOB } from './outbox-dispatcher';
import { Outbox } from './outbox.repository';
import { OutboxRecord } from './outbox-record.entity';
import { OutboxRelay } from './outbox-relay';

/** Of any type: the worker under test gives every type to the recording consumer alone. */
class ThingHappenedEvent extends DomainEvent {
  readonly type = DomainEventType.AppointmentChanged;

  constructor(accountId: number, payload: { thingId: number }) {
    // A payload of the test's own: the consumers under test read nothing else.
    super(accountId, payload as never);
  }
}

class RecordingConsumer implements DomainEventConsumer {
  readonly received: RecordedEvent[] = [];
  /** Things whose next event fails once (a consumer's passing trouble). */
  readonly failOnce = new Set<number>();
  /**
   * Attempts by thing. Counted per thing, not in all: the relay also hands over rows other suites
   * of the run left in the shared database (long dispatched, never processed), which reach this
   * consumer too.
   */
  private readonly attempted = new Map<number, number>();
  attemptsOf(things: number[]): number {
    return things.reduce((sum, thing) => sum + (this.attempted.get(thing) ?? 0), 0);
  }
  handle(event: RecordedEvent): Promise<void> {
    const { thingId } = event.payload as unknown as { thingId: number };
    this.attempted.set(thingId, (this.attempted.get(thingId) ?? 0) + 1);
    if (this.failOnce.delete(thingId)) return Promise.reject(new Error(`thing ${thingId} failed`));
    this.received.push(event);
    return Promise.resolve();
  }
}

describe('Outbox: events reach the queue exactly once (MySQL + Redis)', () => {
  let redis: PrivateRedis;
  let worker: TestingModule;
  let db: DataSource;
  let consumer: RecordingConsumer;
  let queue: Queue<DomainEventBatch>;
  let thingId = 0;

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    const base = testConfig();
    const config = base.with({
      redis: { ...base.redis, port: redis.port },
      outbox: { ...base.outbox, relayIntervalMs: 100, relayDelayMs: 300 },
    });
    consumer = new RecordingConsumer();
    worker = await Test.createTestingModule({
      imports: [WorkerModule.forRoot({ config, logger: createRootLogger('silent', 'worker') })],
    })
      .overrideProvider(DOMAIN_EVENT_CONSUMERS)
      .useValue(everyTypeTo(consumer))
      .compile();
    await worker.init();
    db = worker.get(DataSource);
    queue = worker.get<Queue<DomainEventBatch>>(getQueueToken(QueueName.DomainEvents));
    await queue.isReady();
  });

  afterAll(async () => {
    await redis.start(); // lets Bull close cleanly if a test left Redis down
    await worker.close();
    await redis.stop();
  });

  /** Commits one event the way a command handler does, then publishes it after commit. */
  async function commitEvent(): Promise<OutboxRecord> {
    const id = ++thingId;
    const pending = await db.transaction((tx) =>
      Outbox.record(tx, [new ThingHappenedEvent(7, { thingId: id })]),
    );
    worker.get(DomainEventPublisher).publishAfterCommit(pending);
    return pending.records[0];
  }

  const deliveriesOf = (outboxId: string) =>
    consumer.received.filter((e) => e.outboxId === outboxId);
  const rowOf = (id: string) => db.getRepository(OutboxRecord).findOneByOrFail({ id });

  it('dispatches at once after commit when Redis is up, and the relay adds no second copy', async () => {
    const record = await commitEvent();
    const delivered = await eventually(() => deliveriesOf(record.id)[0]);
    expect(delivered).toEqual({
      outboxId: record.id,
      type: DomainEventType.AppointmentChanged,
      accountId: 7,
      payload: { thingId: thingId },
      occurredAt: record.createdAt.toISOString(),
    });
    await eventually(async () => ((await rowOf(record.id)).dispatchedAt ? true : undefined));
    // Past the relay delay, and enqueued once more by hand: still one job, one delivery.
    await new Promise((r) => setTimeout(r, 600));
    await worker.get(OutboxRelay).relayOnce();
    const { jobId } = await rowOf(record.id);
    expect(jobId).not.toBeNull();
    await queue.add(EVENTS_JOB, { events: [{ ...delivered }] }, { jobId: jobId! });
    await new Promise((r) => setTimeout(r, 300));
    expect(deliveriesOf(record.id)).toHaveLength(1);
  });

  it('keeps a row committed while Redis is down and relays it exactly once when Redis is back', async () => {
    await redis.stop();
    await eventually(() => (queue.client.status !== 'ready' ? true : undefined));

    const record = await commitEvent();
    await new Promise((r) => setTimeout(r, 800)); // several relay passes while Redis is down
    expect((await rowOf(record.id)).dispatchedAt).toBeNull();
    expect(deliveriesOf(record.id)).toHaveLength(0);

    await redis.start(); // an empty Redis: nothing of the event survives there
    await eventually(() => deliveriesOf(record.id)[0]);
    await eventually(async () => ((await rowOf(record.id)).dispatchedAt ? true : undefined));
    expect(await queue.getJob((await rowOf(record.id)).jobId!)).not.toBeNull();

    await new Promise((r) => setTimeout(r, 800)); // more relay passes
    expect(deliveriesOf(record.id)).toHaveLength(1);
  });

  it('marks an event processed once its consumers ran; the relay hands it over again only when its job is gone', async () => {
    const record = await commitEvent();
    await eventually(() => deliveriesOf(record.id)[0]);
    await eventually(async () => ((await rowOf(record.id)).processedAt ? true : undefined));
    // Marked dispatched, with its job, by the publisher (in batches, a moment later).
    await eventually(async () => ((await rowOf(record.id)).jobId ? true : undefined));
    const longAgo = () => new Date(Date.now() - 10 * 60_000);
    const repository = db.getRepository(OutboxRecord);

    // Unprocessed long after its dispatch, but its job completed (the mark was lost): marked, not rerun.
    await repository.update({ id: record.id }, { processedAt: null, dispatchedAt: longAgo() });
    await eventually(async () => ((await rowOf(record.id)).processedAt ? true : undefined));
    expect(deliveriesOf(record.id)).toHaveLength(1);

    // Its job is gone (Redis restarted empty): queued again and processed again (at least once).
    await (await queue.getJob((await rowOf(record.id)).jobId!))!.remove();
    await repository.update({ id: record.id }, { processedAt: null, dispatchedAt: longAgo() });
    await eventually(() => (deliveriesOf(record.id).length === 2 ? true : undefined));
    await eventually(async () => ((await rowOf(record.id)).processedAt ? true : undefined));
    // Recently dispatched and unprocessed (in the queue's backlog): left alone.
    await repository.update({ id: record.id }, { processedAt: null, dispatchedAt: new Date() });
    await new Promise((r) => setTimeout(r, 500));
    expect((await rowOf(record.id)).processedAt).toBeNull();
    expect(deliveriesOf(record.id)).toHaveLength(2);
  });

  it('carries events handed over together in one job, and tries again only the one that failed', async () => {
    const things = [++thingId, ++thingId, ++thingId];
    consumer.failOnce.add(things[1]);
    const pending = await db.transaction((tx) =>
      Outbox.record(
        tx,
        things.map((id) => new ThingHappenedEvent(7, { thingId: id })),
      ),
    );
    worker.get(DomainEventPublisher).publishAfterCommit(pending);
    const ids = pending.records.map((r) => r.id);

    // The job's first attempt fails for the second event; Bull tries the job again (after 1 s).
    await eventually(() => (ids.every((id) => deliveriesOf(id).length > 0) ? true : undefined));
    const rows = await Promise.all(ids.map(rowOf));
    expect(new Set(rows.map((r) => r.jobId)).size).toBe(1);
    await eventually(async () =>
      (await Promise.all(ids.map(rowOf))).every((r) => r.processedAt) ? true : undefined,
    );
    const job = await queue.getJob(rows[0].jobId!);
    expect(await job!.getState()).toBe('completed');
    expect(job!.attemptsMade).toBe(1);
    expect(job!.data.events.map((e) => e.outboxId)).toEqual(ids);
    // Each event reached the consumer once; the failed one was tried twice, the others once.
    expect(ids.map((id) => deliveriesOf(id).length)).toEqual([1, 1, 1]);
    expect(consumer.attemptsOf(things)).toBe(4);
  });

  it('writes nothing when the transaction rolls back', async () => {
    const before = await db.getRepository(OutboxRecord).count();
    await expect(
      db.transaction(async (tx) => {
        await Outbox.record(tx, [new ThingHappenedEvent(7, { thingId: -1 })]);
        throw new Error('business rule refused');
      }),
    ).rejects.toThrow('business rule refused');
    expect(await db.getRepository(OutboxRecord).count()).toBe(before);
  });

  it('refuses to record outside a transaction', async () => {
    await expect(
      Outbox.record(db.manager, [new ThingHappenedEvent(7, { thingId: 0 })]),
    ).rejects.toThrow('Outbox.record must run inside a transaction');
  });

  it('lets two relays share a backlog without enqueuing a row twice', async () => {
    await redis.stop();
    await eventually(() => (queue.client.status !== 'ready' ? true : undefined));
    const records: OutboxRecord[] = [];
    for (let i = 0; i < 30; i++) records.push(await commitEvent());
    await redis.start();
    await eventually(() => (queue.client.status === 'ready' ? true : undefined));
    await new Promise((r) => setTimeout(r, 400));
    const relay = worker.get(OutboxRelay);
    await Promise.all([relay.relayOnce(), relay.relayOnce(), relay.relayOnce()]);
    await eventually(() =>
      records.every((r) => deliveriesOf(r.id).length > 0) ? true : undefined,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(records.map((r) => deliveriesOf(r.id).length)).toEqual(records.map(() => 1));
  });
});
