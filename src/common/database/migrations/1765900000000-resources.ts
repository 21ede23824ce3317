import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TABLE_OPTIONS } from './table-options';

/**
 * Resources (docs/resources.md): rooms and equipment an account's calendars share.
 * - `resources`: a name and a quantity (how many units exist), soft-deleted as every catalog row.
 * - `appointment_type_resources`: the resources each type needs, one unit of each, listed by
 *   resource (which types use it).
 * - `appointment_types.uses_resources`: whether the type lists any, so that availability reads
 *   resource usage only for the types that have some (a subquery on every read would cost all);
 *   `resource_peers`: the types that share a resource with it (itself included), whose
 *   appointments' index its resources' uses are read by.
 * - `resource_days`: one row per resource and UTC day some booking of it touched, written and
 *   locked (FOR UPDATE, by INSERT … ON DUPLICATE KEY UPDATE) by each booking for the days its span
 *   touches: bookings of one resource serialise only when their spans share a day.
 * What a resource's units are used by is read from the appointments, holds and class sessions of
 * the types linked to it: there is no ledger to keep in step with them.
 */
export class Resources1765900000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE resources (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        account_id INT UNSIGNED NOT NULL,
        name VARCHAR(255) NOT NULL,
        quantity SMALLINT UNSIGNED NOT NULL,
        deleted_at DATETIME(3) NULL,
        created_at DATETIME(3) NOT NULL,
        updated_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        KEY idx_resources_account (account_id, id)
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE appointment_type_resources (
        appointment_type_id INT UNSIGNED NOT NULL,
        resource_id INT UNSIGNED NOT NULL,
        PRIMARY KEY (appointment_type_id, resource_id),
        KEY idx_appointment_type_resources_resource (resource_id)
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE resource_days (
        account_id INT UNSIGNED NOT NULL,
        resource_id INT UNSIGNED NOT NULL,
        day DATE NOT NULL,
        PRIMARY KEY (account_id, resource_id, day)
      ) ${TABLE_OPTIONS}`);
    await q.query(
      `ALTER TABLE appointment_types ADD COLUMN uses_resources BOOLEAN NOT NULL DEFAULT FALSE,
        ADD COLUMN resource_peers JSON NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE appointment_types DROP COLUMN uses_resources, DROP COLUMN resource_peers',
    );
    await q.query('DROP TABLE resource_days');
    await q.query('DROP TABLE appointment_type_resources');
    await q.query('DROP TABLE resources');
  }
}
