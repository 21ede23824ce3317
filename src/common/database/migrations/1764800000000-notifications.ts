import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TABLE_OPTIONS } from './table-options';

/**
 * Client notifications (confirmation e-mail and SMS, notices of a move or a cancellation,
 * reminders), with MySQL as the record of what a client was told:
 *
 * - `notifications`: one row per message the worker decided on, sent or not (`status` `pending`,
 *   `sent`, `failed` or `skipped` with the reason in `error`). `dedupe_key` makes planning
 *   idempotent: `event:<outboxId>:<channel>` for the message of a domain event, and
 *   `reminder:<appointmentId>:<start in epoch ms>:<channel>` for the reminder of one start time,
 *   so an event handed over twice, or a reminder planned again, adds no row. `reminder_for` is the
 *   start a reminder is about: the job sends nothing once the appointment has moved from it.
 *   `leased_until` lets one job at a time attempt a message.
 * - `accounts.reminder_hours`: how long before an appointment its reminder goes (0: none).
 */
export class Notifications1764800000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE accounts ADD COLUMN reminder_hours SMALLINT UNSIGNED NOT NULL DEFAULT 24',
    );
    await q.query(`
      CREATE TABLE notifications (
        id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
        account_id INT UNSIGNED NOT NULL,
        appointment_id INT UNSIGNED NOT NULL,
        outbox_id BIGINT UNSIGNED NULL,
        reminder_for DATETIME(3) NULL,
        dedupe_key VARCHAR(96) NOT NULL,
        channel VARCHAR(8) NOT NULL,
        kind VARCHAR(16) NOT NULL,
        recipient VARCHAR(254) NOT NULL,
        status VARCHAR(8) NOT NULL,
        attempts SMALLINT UNSIGNED NOT NULL DEFAULT 0,
        error VARCHAR(255) NULL,
        provider_message_id VARCHAR(255) NULL,
        due_at DATETIME(3) NOT NULL,
        leased_until DATETIME(3) NULL,
        sent_at DATETIME(3) NULL,
        created_at DATETIME(3) NOT NULL,
        updated_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uq_notifications_dedupe (dedupe_key),
        KEY idx_notifications_appointment (appointment_id, kind, status),
        KEY idx_notifications_event (outbox_id),
        CONSTRAINT fk_notifications_appointment FOREIGN KEY (appointment_id)
          REFERENCES appointments (id) ON DELETE CASCADE ON UPDATE RESTRICT
      ) ${TABLE_OPTIONS}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE notifications');
    await q.query('ALTER TABLE accounts DROP COLUMN reminder_hours');
  }
}
