import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TABLE_OPTIONS } from './table-options';

/**
 * Slot holds and booking limits:
 * - `slot_holds`: a time held for a client while they pay or fill in a form. A live hold
 *   (`expires_at` after now) is busy time of its calendar, read as appointments are, by
 *   (calendar_id, busy_from); a class hold (`class_id`) takes a seat of its session instead. Only
 *   the token's SHA-256 is stored. Expired rows are busy for nobody; the worker's sweeper deletes
 *   them by `expires_at`.
 * - `max_per_day` / `max_per_week` on appointment types and calendars: at most that many live
 *   appointments (and holds) a local day / ISO week of the calendar's zone; null: no limit.
 * - `accounts.hold_max_minutes`: the longest a hold lasts from its creation (1–30).
 */
export class SlotHolds1765200000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE slot_holds (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        account_id INT UNSIGNED NOT NULL,
        appointment_type_id INT UNSIGNED NOT NULL,
        calendar_id INT UNSIGNED NOT NULL,
        class_id INT UNSIGNED NULL,
        starts_at DATETIME(3) NOT NULL,
        busy_from DATETIME(3) NOT NULL,
        busy_until DATETIME(3) NOT NULL,
        addon_ids JSON NOT NULL,
        timezone VARCHAR(64) NOT NULL,
        token_hash BINARY(32) NOT NULL,
        expires_at DATETIME(3) NOT NULL,
        created_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        UNIQUE KEY idx_slot_holds_token (token_hash),
        KEY idx_slot_holds_calendar_busy (calendar_id, busy_from),
        KEY idx_slot_holds_class (class_id),
        KEY idx_slot_holds_type_start (appointment_type_id, starts_at),
        KEY idx_slot_holds_expiry (expires_at)
      ) ${TABLE_OPTIONS}`);
    for (const table of ['appointment_types', 'calendars'])
      await q.query(`ALTER TABLE ${table}
        ADD COLUMN max_per_day SMALLINT UNSIGNED NULL,
        ADD COLUMN max_per_week SMALLINT UNSIGNED NULL`);
    await q.query(
      'ALTER TABLE accounts ADD COLUMN hold_max_minutes TINYINT UNSIGNED NOT NULL DEFAULT 30',
    );
    // The type's limit counts its live appointments of a day: by type and start, not the account's.
    await q.query(
      'CREATE INDEX idx_appointments_type_start ON appointments (appointment_type_id, starts_at)',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX idx_appointments_type_start ON appointments');
    await q.query('ALTER TABLE accounts DROP COLUMN hold_max_minutes');
    for (const table of ['appointment_types', 'calendars'])
      await q.query(`ALTER TABLE ${table} DROP COLUMN max_per_day, DROP COLUMN max_per_week`);
    await q.query('DROP TABLE slot_holds');
  }
}
