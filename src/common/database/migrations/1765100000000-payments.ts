import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The payments ledger: every payment and refund recorded against an appointment or an order (one of
 * the two), its amount signed (a refund is negative). A processor's transaction id is the account's
 * idempotency key, unique per account and compared byte for byte (`ch_A` and `ch_a` are two
 * charges).
 */
export class Payments1765100000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payments (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        account_id INT UNSIGNED NOT NULL,
        appointment_id INT UNSIGNED NULL,
        order_id INT UNSIGNED NULL,
        amount_cents INT NOT NULL,
        processor VARCHAR(32) NOT NULL,
        transaction_id VARCHAR(255) COLLATE utf8mb4_bin NOT NULL,
        reason VARCHAR(1000) NOT NULL DEFAULT '',
        created_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uq_payments_account_transaction (account_id, transaction_id),
        KEY idx_payments_appointment (appointment_id, id),
        KEY idx_payments_order (order_id, id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE payments');
  }
}
