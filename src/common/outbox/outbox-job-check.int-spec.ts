import Bull, { type Job, type Queue } from 'bull';
import { eventually } from '../../../test/support/eventually';
import { testConfig } from '../../../test/support/test-environment';
import type { DomainEventBatch, RecordedEvent } from './domain-event';
import { DomainEventType } from './domain-event-types';
import { batchJobId } from './outbox-dispatcher';
import { checkJob } from './outbox-job-check';

/**
 * checkJob against a real Redis, a queue of this file's own: each way Redis can lose part of a job
 * (its hash, its list entry, all of it but a field) as Bull's own scripts leave it.
 */
describe('checkJob: what the relay does with a job of rows dispatched long ago (Redis)', () => {
  let queue: Queue<DomainEventBatch>;
  let next = 1000;

  beforeAll(async () => {
    const { redis, queue: q } = testConfig();
    queue = new Bull<DomainEventBatch>('domain-events', {
      redis: { host: redis.host, port: redis.port, db: redis.db },
      prefix: `${q.prefix}:job-check-${process.pid}`,
    });
    await queue.isReady();
  });

  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
  });

  /** A job of `size` fresh rows, added as the dispatcher adds it. */
  async function addJob(size = 2): Promise<{ job: Job<DomainEventBatch>; outboxIds: string[] }> {
    const outboxIds = Array.from({ length: size }, () => String(++next));
    const events: RecordedEvent[] = outboxIds.map(
      (outboxId) =>
        ({
          outboxId,
          type: DomainEventType.AppointmentScheduled,
          accountId: 1,
          payload: {},
          occurredAt: new Date().toISOString(),
        }) as RecordedEvent,
    );
    const job = await queue.add('events', { events }, { jobId: batchJobId(outboxIds) });
    return { job, outboxIds };
  }

  const key = (jobId: string | number, suffix = '') => `${queue.toKey(String(jobId))}${suffix}`;

  it('leaves a waiting or delayed job to the queue', async () => {
    const { job, outboxIds } = await addJob();
    expect(await checkJob(queue, String(job.id), outboxIds)).toEqual({ kind: 'queued' });
    const delayed = await queue.add('events', job.data, { jobId: 'delayed-1', delay: 60_000 });
    expect(await checkJob(queue, String(delayed.id), outboxIds)).toEqual({ kind: 'queued' });
    await job.remove();
    await delayed.remove();
  });

  it('hands over a job in no list (stuck): removed, so that adding it again is not ignored', async () => {
    const { job, outboxIds } = await addJob();
    await queue.client.lrem(queue.toKey('wait'), 0, String(job.id));
    expect(await job.getState()).toBe('stuck');

    expect(await checkJob(queue, String(job.id), outboxIds)).toEqual({
      kind: 'requeue',
      reason: 'stuck',
    });
    expect(await queue.getJob(String(job.id))).toBeNull();
  });

  it('hands over a job whose hash is gone, or left with none of its data', async () => {
    const gone = await addJob();
    await queue.client.del(key(gone.job.id));
    expect(await checkJob(queue, String(gone.job.id), gone.outboxIds)).toEqual({
      kind: 'requeue',
      reason: 'lost',
    });

    // What Bull's moveToActive leaves of a job whose list entry outlived its hash: one field.
    const { job, outboxIds } = await addJob();
    await queue.client.del(key(job.id));
    await queue.client.hset(key(job.id), 'processedOn', String(Date.now()));
    expect(await queue.getJob(String(job.id))).not.toBeNull();
    expect(await checkJob(queue, String(job.id), outboxIds)).toEqual({
      kind: 'requeue',
      reason: 'lost',
    });
    expect(await queue.client.exists(key(job.id))).toBe(0);
    expect(await queue.client.lrange(queue.toKey('wait'), 0, -1)).not.toContain(String(job.id));
  });

  it('says failed for a job that failed for good', async () => {
    const { job, outboxIds } = await addJob();
    // Where a job that failed for good is: in the `failed` set alone.
    await queue.client.lrem(queue.toKey('wait'), 0, String(job.id));
    await queue.client.zadd(queue.toKey('failed'), Date.now(), String(job.id));
    expect(await job.getState()).toBe('failed');
    const verdict = await checkJob(queue, String(job.id), outboxIds);
    expect(verdict.kind).toBe('failed');
  });

  it('takes a job that does not carry the rows for lost (their ids made it, not its data)', async () => {
    const { job } = await addJob();
    await queue.client.lrem(queue.toKey('wait'), 0, String(job.id));
    expect(await checkJob(queue, String(job.id), ['1', '2'])).toEqual({
      kind: 'requeue',
      reason: 'lost',
    });
  });

  it('never takes a job from a live worker that holds it, whatever list lost it', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    void queue.process('events', async () => {
      runs++;
      await released;
    });
    const { job, outboxIds } = await addJob();
    await eventually(async () => ((await job.getState()) === 'active' ? true : undefined));
    expect(await checkJob(queue, String(job.id), outboxIds)).toEqual({ kind: 'queued' });

    // Its entry in `active` lost: stuck for Bull, but locked by the worker running it.
    await queue.client.lrem(queue.toKey('active'), 0, String(job.id));
    expect(await job.getState()).toBe('stuck');
    expect(await checkJob(queue, String(job.id), outboxIds)).toEqual({ kind: 'running' });
    // Its hash lost too: still the worker's.
    const data = await queue.client.hgetall(key(job.id));
    await queue.client.del(key(job.id));
    expect(await checkJob(queue, String(job.id), outboxIds)).toEqual({ kind: 'running' });
    await queue.client.hset(key(job.id), data);

    release();
    // Bull cannot finish a job that no list has: its run over, it is left in none, unlocked, and
    // the relay's to hand over (its rows, if still unmarked), never while it ran.
    await eventually(async () => {
      const verdict = await checkJob(queue, String(job.id), outboxIds);
      return verdict.kind === 'running' ? undefined : verdict;
    }).then((verdict) => expect(verdict).toEqual({ kind: 'requeue', reason: 'stuck' }));
    expect(runs).toBe(1);
  });
});
