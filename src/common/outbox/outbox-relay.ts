import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bull';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bull';
import type { Logger } from 'pino';
import { DataSource, type EntityManager, In } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { ROOT_LOGGER } from '../logging/logging.module';
import { QueueName } from '../queues/queue-names';
import { RepeatingPass } from '../queues/repeating-pass';
import type { DomainEventBatch } from './domain-event';
import { OutboxDispatcher } from './outbox-dispatcher';
import { OutboxRecord } from './outbox-record.entity';

const BATCH_SIZE = 200;

/**
 * Worker-side safety net of the outbox; the outbox is the truth, even when Redis loses everything.
 * Each pass takes the unprocessed rows (few: the events in flight, read by `idx_outbox_unprocessed`)
 * that need a hand:
 *
 * - still undispatched some seconds after they were written (their writer crashed, or Redis was
 *   down): enqueued and marked dispatched;
 * - dispatched long ago (OUTBOX_REDELIVER_AFTER_MS) yet unprocessed: their job (`job_id`, recorded
 *   with the dispatch) is looked up. Gone (Redis restarted empty) → enqueued again; failed for
 *   good → retried; completed → the row is marked processed (the mark was lost; a job completes
 *   only once all its events are processed); waiting or running → left to the queue's backlog.
 *   Their `dispatched_at` is moved to now, so they are looked at again only after another such
 *   delay.
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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly dispatcher: OutboxDispatcher,
    private readonly moduleRef: ModuleRef,
    private readonly config: AppConfig,
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
    return this.dataSource.transaction(async (tx) => {
      const rows = await tx
        .createQueryBuilder(OutboxRecord, 'o')
        .where('o.processed_at IS NULL')
        .andWhere(
          '((o.dispatched_at IS NULL AND o.created_at <= :cutoff) OR o.dispatched_at <= :redeliverCutoff)',
          {
            cutoff: new Date(now - relayDelayMs),
            redeliverCutoff: new Date(now - redeliverAfterMs),
          },
        )
        .orderBy('o.id', 'ASC')
        .limit(BATCH_SIZE)
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getMany();
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
    const byJob = new Map<string, OutboxRecord[]>();
    const lost: OutboxRecord[] = [];
    for (const row of rows) {
      // No job recorded (a dispatch records it; a row written by hand may lack it): nothing to
      // look for, so it is handed over again, as one whose job is gone.
      if (row.jobId === null) {
        lost.push(row);
        continue;
      }
      const jobRows = byJob.get(row.jobId);
      if (jobRows) jobRows.push(row);
      else byJob.set(row.jobId, [row]);
    }
    const processed: string[] = [];
    const retried: string[] = [];
    for (const [jobId, jobRows] of byJob) {
      const job = await this.queue.getJob(jobId);
      const state = job ? await job.getState() : undefined;
      if (!job || state === undefined) lost.push(...jobRows);
      else if (state === 'completed') processed.push(...jobRows.map((r) => r.id));
      else if (state === 'failed') {
        await job.retry();
        retried.push(jobId);
      }
    }
    const now = new Date();
    await tx.update(OutboxRecord, { id: In(rows.map((r) => r.id)) }, { dispatchedAt: now });
    if (lost.length > 0) {
      for (const job of await this.dispatcher.enqueue(lost))
        await tx.update(OutboxRecord, { id: In(job.outboxIds) }, { jobId: job.jobId });
    }
    if (processed.length > 0) {
      await tx.update(OutboxRecord, { id: In(processed) }, { processedAt: now });
    }
    if (lost.length > 0 || retried.length > 0) {
      this.logger.warn(
        { lost: lost.map((r) => r.id), retriedJobs: retried },
        'outbox events whose job was lost or had failed handed to the queue again',
      );
    }
  }
}
