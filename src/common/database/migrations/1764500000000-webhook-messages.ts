import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TABLE_OPTIONS } from './table-options';

/**
 * Webhook delivery, with MySQL as the truth even when Redis loses everything:
 *
 * - `outbox.processed_at`: set once every worker-side consumer of the event has run. The relay hands
 *   an event dispatched long ago but still unprocessed to the queue again (its job was lost). Rows
 *   dispatched before this migration are taken as processed: their jobs ran, or will and mark them.
 * - `webhook_messages`: one row per (event, subscription), what the fan-out decided to send; its
 *   status, attempts made and next due time drive the delivery jobs, which claim a row for one
 *   attempt at a time (`leased_until`), so duplicate or revived jobs never send twice at once.
 *   `variables` is a JSON array of [name, value] pairs: MySQL 8 reorders the keys of a JSON object.
 */
export class WebhookMessages1764500000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE outbox
        ADD COLUMN processed_at DATETIME(3) NULL,
        ADD KEY idx_outbox_unprocessed (processed_at, id)`);
    await q.query('UPDATE outbox SET processed_at = dispatched_at WHERE dispatched_at IS NOT NULL');
    await q.query(`
      CREATE TABLE webhook_messages (
        id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
        account_id INT UNSIGNED NOT NULL,
        subscription_id INT UNSIGNED NOT NULL,
        outbox_id BIGINT UNSIGNED NOT NULL,
        action VARCHAR(32) NOT NULL,
        resource_id INT UNSIGNED NOT NULL,
        variables JSON NOT NULL,
        status VARCHAR(10) NOT NULL,
        attempts SMALLINT UNSIGNED NOT NULL,
        next_attempt_at DATETIME(3) NOT NULL,
        leased_until DATETIME(3) NULL,
        created_at DATETIME(3) NOT NULL,
        updated_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uq_webhook_messages_event (outbox_id, subscription_id),
        KEY idx_webhook_messages_due (status, next_attempt_at),
        KEY idx_webhook_messages_subscription (subscription_id),
        CONSTRAINT fk_webhook_messages_subscription FOREIGN KEY (subscription_id)
          REFERENCES webhook_subscriptions (id) ON DELETE CASCADE ON UPDATE RESTRICT
      ) ${TABLE_OPTIONS}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE webhook_messages');
    await q.query('ALTER TABLE outbox DROP KEY idx_outbox_unprocessed, DROP COLUMN processed_at');
  }
}
