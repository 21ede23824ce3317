import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TABLE_OPTIONS } from './table-options';

/**
 * Enterprises: one credential for many accounts. An account belongs to at most one
 * enterprise (`accounts.enterprise_id`). A webhook subscription belongs either to an account (as
 * before) or to an enterprise, whose subscription receives the events of all its members: exactly
 * one of `account_id` and `enterprise_id` is set, and an enterprise's are `api` subscriptions (the
 * CHECK; TypeORM does not read CHECK constraints on MySQL, so the entity cannot declare it).
 */
export class Enterprises1765300000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE enterprises (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        name VARCHAR(255) NOT NULL,
        api_key_hash CHAR(64) NOT NULL,
        api_key_encrypted VARCHAR(255) NOT NULL,
        requests_per_minute INT UNSIGNED NOT NULL DEFAULT 6000,
        created_at DATETIME(3) NOT NULL,
        updated_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id)
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      ALTER TABLE accounts
        ADD COLUMN enterprise_id INT UNSIGNED NULL,
        ADD KEY idx_accounts_enterprise (enterprise_id),
        ADD CONSTRAINT fk_accounts_enterprise FOREIGN KEY (enterprise_id)
          REFERENCES enterprises (id) ON DELETE RESTRICT ON UPDATE RESTRICT`);
    await q.query(`
      ALTER TABLE webhook_subscriptions
        MODIFY COLUMN account_id INT UNSIGNED NULL,
        ADD COLUMN enterprise_id INT UNSIGNED NULL,
        ADD KEY idx_webhook_subscriptions_enterprise_fanout (enterprise_id, action, status),
        ADD CONSTRAINT fk_webhook_subscriptions_enterprise FOREIGN KEY (enterprise_id)
          REFERENCES enterprises (id) ON DELETE CASCADE ON UPDATE RESTRICT,
        ADD CONSTRAINT chk_webhook_subscriptions_owner CHECK (
          (account_id IS NOT NULL AND enterprise_id IS NULL)
          OR (account_id IS NULL AND enterprise_id IS NOT NULL AND source = 'api')
        )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DELETE FROM webhook_subscriptions WHERE enterprise_id IS NOT NULL');
    await q.query(`
      ALTER TABLE webhook_subscriptions
        DROP CONSTRAINT chk_webhook_subscriptions_owner,
        DROP FOREIGN KEY fk_webhook_subscriptions_enterprise,
        DROP KEY idx_webhook_subscriptions_enterprise_fanout,
        DROP COLUMN enterprise_id,
        MODIFY COLUMN account_id INT UNSIGNED NOT NULL`);
    await q.query(`
      ALTER TABLE accounts
        DROP FOREIGN KEY fk_accounts_enterprise,
        DROP KEY idx_accounts_enterprise,
        DROP COLUMN enterprise_id`);
    await q.query('DROP TABLE enterprises');
  }
}
