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
import { groupBy } from '../collections/group-by';
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
 * Worker-side safety net of the outbox, the truth even when Redis loses everything
 * (docs/operations.md, "Events are never lost"). Each pass takes, `FOR UPDATE SKIP LOCKED`, rows
 * - undispatched some seconds after they were written (writer crashed, Redis down): enqueued;
 * - dispatched long ago (OUTBOX_REDELIVER_AFTER_MS) yet unprocessed: their job is looked up
 *   (checkJob). Queued or locked by a worker → left to it; completed → the rows marked processed
 *   (the mark was lost); failed for good → retried; `lost` or `stuck` → its events enqueued again
 *   (logged, counted). `dispatched_at` moves to now: a row leaves this loop only processed.
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
    // The domain-events queue, registered by OutboxModule.
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
      const undispatched = rows.filter((r) => r.dispatchedAt === null);
      const dispatched = rows.filter((r) => r.dispatchedAt !== null);
      await this.dispatcher.dispatch(undispatched, tx);
      await this.redeliver(dispatched, tx);
      return rows.length;
    });
  }

  /** Rows dispatched long ago and still unprocessed (see the class comment). */
  private async redeliver(rows: OutboxRecord[], tx: EntityManager): Promise<void> {
    if (rows.length === 0 || !this.queue) return;
    const byJob = groupBy(rows, (row) => row.jobId);
    const processed: string[] = [];
    const handedOver: HandedOver[] = [];
    for (const [jobId, jobRows] of byJob) {
      // No job recorded (a row written by hand): handed over again, as one whose job is gone.
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
        // A job that changed while looked at (or Redis failing) holds up no other: looked at later.
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
    const ids = rows.map((r) => r.id);
    await this.rows.set(tx, ids, { dispatchedAt: now });
    await this.rows.set(tx, processed, { processedAt: now });
    for (const { reason, jobId, rows: jobRows } of handedOver) {
      // A failed job was retried in place; the others are added again under the id their rows make.
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
