import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TABLE_OPTIONS } from './table-options';

/**
 * Recurring appointments (docs/series.md):
 * - `appointment_series`: a series booked at once, all or nothing: its type, the one calendar
 *   that took every occurrence, and its rule: the first occurrence's start as booked and the
 *   calendar's zone then (`starts_at`, `timezone`: its wall-clock time), how it repeats
 *   (`frequency`, `repeat_interval`, `count`).
 * - `appointments.series_id`: the series an appointment is an occurrence of (null: none), listed
 *   by (series_id, starts_at).
 * - `appointment_types.recurrence`: what the type's clients may book as a series,
 *   `{frequencies, maxCount}`; null: none.
 */
export class AppointmentSeries1765800000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE appointment_series (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        account_id INT UNSIGNED NOT NULL,
        appointment_type_id INT UNSIGNED NOT NULL,
        calendar_id INT UNSIGNED NOT NULL,
        frequency VARCHAR(16) NOT NULL,
        repeat_interval TINYINT UNSIGNED NOT NULL,
        count TINYINT UNSIGNED NOT NULL,
        starts_at DATETIME(3) NOT NULL,
        timezone VARCHAR(64) NOT NULL,
        created_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        KEY idx_appointment_series_account (account_id)
      ) ${TABLE_OPTIONS}`);
    await q.query(`ALTER TABLE appointments
      ADD COLUMN series_id INT UNSIGNED NULL,
      ADD KEY idx_appointments_series (series_id, starts_at)`);
    await q.query('ALTER TABLE appointment_types ADD COLUMN recurrence JSON NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE appointment_types DROP COLUMN recurrence');
    await q.query(
      'ALTER TABLE appointments DROP KEY idx_appointments_series, DROP COLUMN series_id',
    );
    await q.query('DROP TABLE appointment_series');
  }
}
