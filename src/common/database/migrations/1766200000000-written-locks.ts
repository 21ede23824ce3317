import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Locks that hold on every node of a Galera cluster (docs/architecture.md "Locks are
 * writes"): each table whose rows serve as a lock gains `lock_version`, which the lock increments
 * (lockRows). A written row is certified by Galera at commit; a row only read `FOR UPDATE` is
 * locked on its own node alone. Instant in MariaDB (a column with a default, added last). The list
 * is row-locks.ts' LockedTable (and resource_days) as of this migration, copied so that the
 * migration stays as it ran when a later one adds a table.
 */
const LOCKED_TABLES = [
  'accounts',
  'enterprises',
  'calendars',
  'appointment_types',
  'appointments',
  'appointment_series',
  'resource_days',
  'resources',
  'certificates',
  'coupons',
  'orders',
  'products',
  'forms',
  'clients',
  'slot_holds',
  'busy_sources',
  'webhook_subscriptions',
] as const;

export class WrittenLocks1766200000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    for (const table of LOCKED_TABLES)
      await q.query(
        `ALTER TABLE ${table} ADD COLUMN lock_version BIGINT UNSIGNED NOT NULL DEFAULT 0`,
      );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of LOCKED_TABLES)
      await q.query(`ALTER TABLE ${table} DROP COLUMN lock_version`);
  }
}
