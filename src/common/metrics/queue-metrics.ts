import { getQueueToken } from '@nestjs/bull';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Job, JobCounts, Queue } from 'bull';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '../logging/logging.module';
import { QueueName } from '../queues/queue-names';
import { Metrics } from './metrics';
import { ScrapeCache } from './scrape-cache';

/** Queue depth is read at most this often (every scrape within it shares one read). */
export const QUEUE_DEPTH_CACHE_MS = 5000;
const READ_TIMEOUT_MS = 2000;

/** The states a backlog is made of (completed jobs are kept for inspection only). */
const STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/**
 * Worker: `queue_jobs{queue,state}`, read from Redis on scrape (one round trip per queue, cached),
 * and `queue_job_duration_seconds{queue,status}` from the queues' own `completed` and `failed`
 * events. The figures are the queues', the same from every pod: aggregate with max(), not sum().
 */
@Injectable()
export class QueueMetrics implements OnModuleInit {
  private readonly depth: ScrapeCache<[QueueName, JobCounts][]>;
  private queues: [QueueName, Queue][] = [];

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly metrics: Metrics,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    this.depth = new ScrapeCache(
      () => Promise.all(this.queues.map(async ([name, q]) => [name, await q.getJobCounts()])),
      QUEUE_DEPTH_CACHE_MS,
      READ_TIMEOUT_MS,
    );
  }

  onModuleInit(): void {
    // The queue objects the processors run on: their local events are this process's jobs.
    this.queues = Object.values(QueueName).map((name) => [
      name,
      this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }),
    ]);
    for (const [name, queue] of this.queues) {
      const completed = this.metrics.jobDuration.labels(name, 'completed');
      const failed = this.metrics.jobDuration.labels(name, 'failed');
      queue.on('completed', (job: Job) => completed.observe(runSeconds(job)));
      queue.on('failed', (job: Job) => failed.observe(runSeconds(job)));
    }
    this.metrics.gauge(
      'queue_jobs',
      'Jobs of each queue by state (waiting, active, delayed, failed), read from Redis on scrape.',
      ['queue', 'state'],
      async (gauge) => {
        gauge.reset();
        // No series rather than stale ones: an alert on their absence sees Redis is gone.
        const counts = await this.depth.get().catch((err: unknown) => {
          this.logger.warn({ err }, 'queue depth not read');
        });
        if (!counts) return;
        for (const [queue, count] of counts)
          for (const state of STATES) gauge.set({ queue, state }, count[state] ?? 0);
      },
    );
  }
}

/** The job's run: from when a worker took it to now (its end). */
function runSeconds(job: Job): number {
  return job.processedOn ? Math.max(0, Date.now() - job.processedOn) / 1000 : 0;
}
