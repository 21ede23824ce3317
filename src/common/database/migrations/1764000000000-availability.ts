import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TABLE_OPTIONS } from './table-options';

/** What takes a calendar's time: appointments (the part availability reads) and blocks. */
export class Availability1764000000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE appointments (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        account_id INT UNSIGNED NOT NULL,
        appointment_type_id INT UNSIGNED NOT NULL,
        calendar_id INT UNSIGNED NOT NULL,
        class_id INT UNSIGNED NULL,
        starts_at DATETIME(3) NOT NULL,
        ends_at DATETIME(3) NOT NULL,
        busy_from DATETIME(3) NOT NULL,
        busy_until DATETIME(3) NOT NULL,
        canceled TINYINT NOT NULL DEFAULT 0,
        created_at DATETIME(3) NOT NULL,
        updated_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        KEY idx_appointments_calendar_busy (calendar_id, busy_from),
        KEY idx_appointments_class (class_id),
        KEY idx_appointments_account_start (account_id, starts_at)
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE blocks (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        account_id INT UNSIGNED NOT NULL,
        calendar_id INT UNSIGNED NOT NULL,
        starts_at DATETIME(3) NOT NULL,
        ends_at DATETIME(3) NOT NULL,
        notes TEXT NOT NULL,
        created_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        KEY idx_blocks_calendar_end (calendar_id, ends_at),
        KEY idx_blocks_account_start (account_id, starts_at)
      ) ${TABLE_OPTIONS}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE blocks, appointments');
  }
}
