import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TABLE_OPTIONS } from './table-options';

/** The client's side of an appointment, its price and certificate, and its form answers. */
export class Booking1764200000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE appointments
        ADD COLUMN first_name VARCHAR(255) NOT NULL DEFAULT '',
        ADD COLUMN last_name VARCHAR(255) NOT NULL DEFAULT '',
        ADD COLUMN email VARCHAR(254) NOT NULL DEFAULT '',
        ADD COLUMN phone VARCHAR(64) NOT NULL DEFAULT '',
        ADD COLUMN timezone VARCHAR(64) NOT NULL DEFAULT 'UTC',
        ADD COLUMN notes TEXT NULL,
        ADD COLUMN price_cents INT UNSIGNED NOT NULL DEFAULT 0,
        ADD COLUMN price_sold_cents INT UNSIGNED NOT NULL DEFAULT 0,
        ADD COLUMN amount_paid_cents INT UNSIGNED NOT NULL DEFAULT 0,
        ADD COLUMN certificate VARCHAR(64) NULL,
        ADD COLUMN certificate_id INT UNSIGNED NULL,
        ADD COLUMN addon_ids JSON NULL,
        ADD COLUMN label_id INT UNSIGNED NULL,
        ADD COLUMN sms_opt_in TINYINT NOT NULL DEFAULT 0,
        ADD COLUMN no_show TINYINT NOT NULL DEFAULT 0,
        ADD COLUMN cancel_note TEXT NULL,
        ADD COLUMN canceled_at DATETIME(3) NULL,
        ADD COLUMN scheduled_by VARCHAR(254) NULL`);
    await q.query(`
      CREATE TABLE appointment_field_values (
        appointment_id INT UNSIGNED NOT NULL,
        field_id INT UNSIGNED NOT NULL,
        form_id INT UNSIGNED NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (appointment_id, field_id)
      ) ${TABLE_OPTIONS}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE appointment_field_values');
    await q.query(`
      ALTER TABLE appointments
        DROP COLUMN first_name, DROP COLUMN last_name, DROP COLUMN email, DROP COLUMN phone,
        DROP COLUMN timezone, DROP COLUMN notes, DROP COLUMN price_cents,
        DROP COLUMN price_sold_cents, DROP COLUMN amount_paid_cents, DROP COLUMN certificate,
        DROP COLUMN certificate_id, DROP COLUMN addon_ids, DROP COLUMN label_id,
        DROP COLUMN sms_opt_in, DROP COLUMN no_show, DROP COLUMN cancel_note,
        DROP COLUMN canceled_at, DROP COLUMN scheduled_by`);
  }
}
