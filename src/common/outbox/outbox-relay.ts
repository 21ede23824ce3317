import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import { UnitOfWork } from '../database/unit-of-work';
import { AppConfig } from '../../config/app-config';
import { ROOT_LOGGER } from '../logging/logging.module';
import { OutboxMetrics, type OutboxRequeueReason } from '../metrics/outbox-metrics';
import { QueueName } from '../queues/queue-names';
import { RepeatingPass } from '../queues/repeating-pass';
import type { DomainEventBatch } from './domain-event';
import { OutboxDispatcher } from './outbox-dispatcher';
import { type JobVerdict, checkJob } from './outbox-job-check';
import type { OutboxRecord } from './outbox-record.entity';
import { OutboxRepository } from './outbox.repository';

const BATCH_SIZE = 200;

/** Rows of one job that the relay hands to the queue again, and why. */
interface HandedOver {
  reason: OutboxRequeueReason;
  /** The job the rows recorded (null: none). */
  jobId: string | null;
  rows: OutboxRecord[];
}

const HANDED_OVER: Record<OutboxRequeueReason, string> = {
  lost: 'outbox job lost by Redis: its events handed to the queue again',
  stuck: 'outbox job stuck in Redis (in no queue list): its events handed to the queue again',
  failed: 'outbox job failed for good: retried',
};

/**
 * Worker-side safety net of the outbox; the outbox is the truth, even when Redis loses everything.
 * Each pass takes the unprocessed rows (few: the events in flight, read by `idx_outbox_unprocessed`)
 * that need a hand:
 *
 * - still undispatched some seconds after they were written (their writer crashed, or Redis was
 *   down): enqueued and marked dispatched;
 * - dispatched long ago (OUTBOX_REDELIVER_AFTER_MS) yet unprocessed: their job (`job_id`, recorded
 *   with the dispatch) is looked up (checkJob), whatever part of Redis was lost. Waiting, active,
 *   delayed or paused → left to the queue (a dead worker's active job returns to `wait` by Bull's
 *   stalled-job check, or fails, and is retried here); held by a worker's lock → left to it;
 *   completed → the rows are marked processed (the mark was lost; a job completes only once all
 *   its events are processed); failed for good → retried; gone, or left without its data (`lost`),
 *   or in none of the queue's lists (`stuck`) → what is left of it removed and its events enqueued
 *   again. Each hand-over is logged (warning, with the job and the rows) and counted
 *   (`outbox_jobs_requeued_total{reason}`). Their `dispatched_at` is moved to now, so they are
 *   looked at again only after another such delay: a row leaves this loop only processed, so no
 *   committed event is lost (consumers are idempotent: a second run adds nothing). The rules, with
 *   the webhook sweeper's, are in docs/operations.md ("Events are never lost").
 *
 * Rows are claimed with `FOR UPDATE SKIP LOCKED`, so several workers share the work without waiting
 * on each other, and a job's id is made from its rows' ids (batchJobId), so rows handed over twice
 * alike are queued once.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly passes: RepeatingPass;
  private queue: Queue<DomainEventBatch> | undefined;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly rows: OutboxRepository,
    private readonly dispatcher: OutboxDispatcher,
    private readonly moduleRef: ModuleRef,
    private readonly config: AppConfig,
    private readonly outboxMetrics: OutboxMetrics,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    this.passes = new RepeatingPass(() => this.relayOnce(), {
      batchSize: BATCH_SIZE,
      intervalMs: config.outbox.relayIntervalMs,
      logger,
      tookRows: 'outbox relay enqueued pending events',
      failed: 'outbox relay pass failed; retrying',
    });
  }

  onApplicationBootstrap(): void {
    // The domain-events queue, registered by OutboxModule (the dispatcher's and the processor's).
    const token = getQueueToken(QueueName.DomainEvents);
    this.queue = this.moduleRef.get<Queue<DomainEventBatch>>(token, { strict: false });
    this.passes.start(0);
  }

  async onModuleDestroy(): Promise<void> {
    await this.passes.stop();
  }

  /** One pass: hands over up to a batch of rows; returns how many it took. */
  async relayOnce(): Promise<number> {
    if (!this.dispatcher.queueReady) return 0;
    const now = Date.now();
    const { relayDelayMs, redeliverAfterMs } = this.config.outbox;
    // A sweep over every account's rows: no account's epoch to mark.
    return this.unitOfWork.run(null, async (tx) => {
      const cutoffs = {
        cutoff: new Date(now - relayDelayMs),
        redeliverCutoff: new Date(now - redeliverAfterMs),
      };
      const rows = await this.rows.due(tx, cutoffs, BATCH_SIZE);
      await this.dispatcher.dispatch(
        rows.filter((r) => r.dispatchedAt === null),
        tx,
      );
      await this.redeliver(
        rows.filter((r) => r.dispatchedAt !== null),
        tx,
      );
      return rows.length;
    });
  }

  /** Rows dispatched long ago and still unprocessed (see the class comment). */
  private async redeliver(rows: OutboxRecord[], tx: EntityManager): Promise<void> {
    if (rows.length === 0 || !this.queue) return;
    const byJob = new Map<string | null, OutboxRecord[]>();
    for (const row of rows) {
      const group = byJob.get(row.jobId);
      if (group) group.push(row);
      else byJob.set(row.jobId, [row]);
    }
    const processed: string[] = [];
    const handedOver: HandedOver[] = [];
    for (const [jobId, jobRows] of byJob) {
      // No job recorded (a dispatch records it; a row written by hand may lack it): nothing to
      // look for, so it is handed over again, as one whose job is gone.
      if (jobId === null) {
        handedOver.push({ reason: 'lost', jobId, rows: jobRows });
        continue;
      }
      const outboxIds = jobRows.map((r) => String(r.id));
      let verdict: JobVerdict;
      try {
        verdict = await checkJob(this.queue, jobId, outboxIds);
        if (verdict.kind === 'failed') await verdict.job.retry();
      } catch (err) {
        // A job that changed while it was looked at (or Redis failing) holds up no other: its
        // rows are looked at again after another OUTBOX_REDELIVER_AFTER_MS.
        this.logger.warn(
          { err, jobId, outboxIds },
          'outbox job not checked; looked at again later',
        );
        continue;
      }
      if (verdict.kind === 'completed') processed.push(...outboxIds);
      else if (verdict.kind === 'failed')
        handedOver.push({ reason: 'failed', jobId, rows: jobRows });
      else if (verdict.kind === 'requeue')
        handedOver.push({ reason: verdict.reason, jobId, rows: jobRows });
    }
    const now = new Date();
    await this.rows.set(
      tx,
      rows.map((r) => r.id),
      { dispatchedAt: now },
    );
    await this.rows.set(tx, processed, { processedAt: now });
    for (const { reason, jobId, rows: jobRows } of handedOver) {
      // A failed job was retried in place, and its rows keep it. The others are added again under
      // the id their rows make: the job's own when none of its rows was processed meanwhile.
      const jobs = reason === 'failed' ? [] : await this.dispatcher.enqueue(jobRows);
      for (const job of jobs) await this.rows.set(tx, job.outboxIds, { jobId: job.jobId });
      this.outboxMetrics.countRequeued(reason, reason === 'failed' ? 1 : jobs.length);
      this.logger.warn(
        {
          reason,
          jobId,
          outboxIds: jobRows.map((r) => String(r.id)),
          requeuedAs: jobs.map((j) => j.jobId),
        },
        HANDED_OVER[reason],
      );
    }
  }
}
