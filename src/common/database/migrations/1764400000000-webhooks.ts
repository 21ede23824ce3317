import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TABLE_OPTIONS } from './table-options';

/**
 * Webhook subscriptions (static: one per account and action, set in the integrations settings;
 * api: created through /webhooks) and the log of their delivery attempts.
 *
 * `static_action` is the action of a static subscription and NULL for an api one, so that the unique
 * key (account_id, static_action) allows one static subscription per action and any number of api
 * ones (NULLs never collide). The CHECK keeps it in step with `source` and `action`; TypeORM does not
 * read CHECK constraints on MySQL, so the entity cannot declare it.
 */
export class Webhooks1764400000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_subscriptions (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        account_id INT UNSIGNED NOT NULL,
        source VARCHAR(8) NOT NULL,
        action VARCHAR(32) NOT NULL,
        static_action VARCHAR(32) NULL,
        target VARCHAR(2048) NOT NULL,
        status VARCHAR(8) NOT NULL,
        failing_since DATETIME(3) NULL,
        disabled_at DATETIME(3) NULL,
        created_at DATETIME(3) NOT NULL,
        updated_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uq_webhook_subscriptions_static (account_id, static_action),
        KEY idx_webhook_subscriptions_fanout (account_id, action, status),
        CONSTRAINT chk_webhook_subscriptions_static_action CHECK (
          (source = 'static' AND static_action IS NOT NULL AND static_action = action)
          OR (source = 'api' AND static_action IS NULL)
        ),
        CONSTRAINT fk_webhook_subscriptions_account FOREIGN KEY (account_id)
          REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE RESTRICT
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
        subscription_id INT UNSIGNED NOT NULL,
        account_id INT UNSIGNED NOT NULL,
        outbox_id BIGINT UNSIGNED NOT NULL,
        action VARCHAR(32) NOT NULL,
        resource_id INT UNSIGNED NOT NULL,
        attempt SMALLINT UNSIGNED NOT NULL,
        attempted_at DATETIME(3) NOT NULL,
        duration_ms INT UNSIGNED NOT NULL,
        status_code SMALLINT UNSIGNED NULL,
        error VARCHAR(255) NULL,
        outcome VARCHAR(10) NOT NULL,
        next_retry_at DATETIME(3) NULL,
        PRIMARY KEY (id),
        KEY idx_webhook_deliveries_subscription (subscription_id, id),
        CONSTRAINT fk_webhook_deliveries_subscription FOREIGN KEY (subscription_id)
          REFERENCES webhook_subscriptions (id) ON DELETE CASCADE ON UPDATE RESTRICT
      ) ${TABLE_OPTIONS}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE webhook_deliveries, webhook_subscriptions');
  }
}
