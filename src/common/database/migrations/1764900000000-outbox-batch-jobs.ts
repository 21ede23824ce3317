import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Domain events travel through the queue in batches: a job carries the events of the rows handed
 * over together. Each row records the job that carries it (`job_id`), so that the relay can tell,
 * for an event still unprocessed long after its dispatch, whether its job waits, failed or is gone.
 * NULL for rows dispatched before (their job id was the row id).
 */
export class OutboxBatchJobs1764900000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE outbox ADD COLUMN job_id VARCHAR(64) NULL AFTER dispatched_at');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE outbox DROP COLUMN job_id');
  }
}
