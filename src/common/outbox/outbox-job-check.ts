import type { Job, Queue } from 'bull';
import type { OutboxRequeueReason } from '../metrics/outbox-metrics';
import type { DomainEventBatch } from './domain-event';

/** What the relay does with the job of rows dispatched long ago and still unprocessed. */
export type JobVerdict =
  /** Waiting, active, delayed or paused: the queue runs it (a dead worker's: Bull's stalled check). */
  | { kind: 'queued' }
  /** Held by a worker's lock though no list has it: the worker finishes it, or its lock runs out. */
  | { kind: 'running' }
  /** Completed: the rows' marks were lost (a job completes only once all its rows are marked). */
  | { kind: 'completed' }
  /** Failed for good: Bull tries it again. */
  | { kind: 'failed'; job: Job<DomainEventBatch> }
  /** Redis lost it, or all of it but its data: removed (if anything is left) to be added again. */
  | { kind: 'requeue'; reason: Exclude<OutboxRequeueReason, 'failed'> };

/** The states in which Bull itself still runs a job, or shows it done. */
const LIVE_STATES = new Set(['waiting', 'active', 'delayed', 'paused']);

/**
 * What the relay should do with the job of some outbox rows (docs/operations.md, "Events are never
 * lost"); Redis may have lost any of its keys. No hash, or one that does not carry these rows
 * (Bull's stalled check writes a hash of its counter alone): `lost`; the hash in none of the
 * queue's lists: `stuck`; both unless a worker holds the job's lock. What is left of a job to
 * re-queue is removed first: Bull ignores an add whose id exists, and its removal script refuses
 * a job a worker locked meanwhile (this throws; the rows wait), so a running job never runs twice.
 */
export async function checkJob(
  queue: Queue<DomainEventBatch>,
  jobId: string,
  outboxIds: string[],
): Promise<JobVerdict> {
  const job = await queue.getJob(jobId);
  if (!job || !carries(job, outboxIds)) {
    if (await isLocked(queue, jobId)) return { kind: 'running' };
    if (job) await job.remove();
    return { kind: 'requeue', reason: 'lost' };
  }
  const state = await job.getState();
  if (state === 'completed') return { kind: 'completed' };
  if (state === 'failed') return { kind: 'failed', job };
  if (LIVE_STATES.has(state)) return { kind: 'queued' };
  if (await isLocked(queue, jobId)) return { kind: 'running' };
  // getState reads the lists one after another: a job moving to `active` meanwhile reads as stuck.
  // Removing it is safe (its worker finds no data) and it is added again: one more run, never none.
  await job.remove();
  return { kind: 'requeue', reason: 'stuck' };
}

/** Whether the job's data names every row, as text (a bigint id may come as a number). */
function carries(job: Job<DomainEventBatch>, outboxIds: string[]): boolean {
  const events: unknown = (job.data as Partial<DomainEventBatch> | undefined)?.events;
  if (!Array.isArray(events)) return false;
  const carried = new Set(events.map((e: { outboxId?: unknown }) => String(e?.outboxId)));
  return outboxIds.every((id) => carried.has(String(id)));
}

/** Whether a worker holds the job (Bull's lock key, renewed while the job runs). */
async function isLocked(queue: Queue, jobId: string): Promise<boolean> {
  return (await queue.client.exists(`${queue.toKey(jobId)}:lock`)) === 1;
}
