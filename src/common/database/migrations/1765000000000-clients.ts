import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The business's client list (`/clients`). One row per person of an account, as identityKey()
 * names them (the name with the e-mail, else with the phone, else alone): the unique key is what
 * makes bookings racing for one new client write one row (`INSERT … ON DUPLICATE KEY UPDATE`).
 * No foreign key to accounts: every booking writes here, and the key's check would take a shared
 * lock on the account's row in each of them (catalog tables have none either).
 */
export class Clients1765000000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE clients (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        account_id INT UNSIGNED NOT NULL,
        identity_key CHAR(64) COLLATE utf8mb4_bin NOT NULL,
        first_name VARCHAR(255) NOT NULL,
        last_name VARCHAR(255) NOT NULL,
        email VARCHAR(254) NOT NULL,
        phone VARCHAR(64) NOT NULL,
        notes TEXT NOT NULL,
        created_at DATETIME(3) NOT NULL,
        updated_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uq_clients_identity (account_id, identity_key),
        KEY idx_clients_account_name (account_id, last_name, first_name)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE clients');
  }
}
