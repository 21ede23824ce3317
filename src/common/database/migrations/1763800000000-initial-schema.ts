import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763800000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE accounts (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        email VARCHAR(254) NOT NULL,
        name VARCHAR(255) NOT NULL,
        timezone VARCHAR(64) NOT NULL,
        currency CHAR(3) NOT NULL DEFAULT 'USD',
        first_day_of_week TINYINT UNSIGNED NOT NULL DEFAULT 0,
        time_format VARCHAR(8) NOT NULL DEFAULT 'ampm',
        plan VARCHAR(32) NOT NULL DEFAULT 'standard',
        password_hash VARCHAR(255) NULL,
        api_key_hash CHAR(64) NOT NULL,
        api_key_encrypted VARCHAR(255) NOT NULL,
        created_at DATETIME(3) NOT NULL,
        updated_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uq_accounts_email (email)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await q.query(`
      CREATE TABLE outbox (
        id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
        account_id INT UNSIGNED NULL,
        type VARCHAR(64) NOT NULL,
        payload JSON NOT NULL,
        created_at DATETIME(3) NOT NULL,
        dispatched_at DATETIME(3) NULL,
        PRIMARY KEY (id),
        KEY idx_outbox_pending (dispatched_at, id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE outbox, accounts');
  }
}
