import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TABLE_OPTIONS } from './table-options';

/** Certificates (packages, coupons, gift certificates), their uses, and the orders that issue them. */
export class Certificates1764100000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE certificates (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        account_id INT UNSIGNED NOT NULL,
        code VARCHAR(64) NOT NULL,
        kind VARCHAR(8) NOT NULL,
        product_id INT UNSIGNED NULL,
        coupon_id INT UNSIGNED NULL,
        order_id INT UNSIGNED NULL,
        name VARCHAR(255) NOT NULL,
        email VARCHAR(254) NULL,
        remaining_value_cents INT UNSIGNED NULL,
        expiration DATE NULL,
        deleted_at DATETIME(3) NULL,
        created_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uq_certificates_account_code (account_id, code),
        KEY idx_certificates_account (account_id, id)
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE certificate_uses (
        certificate_id INT UNSIGNED NOT NULL,
        appointment_type_id INT UNSIGNED NOT NULL,
        remaining INT UNSIGNED NOT NULL,
        PRIMARY KEY (certificate_id, appointment_type_id)
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE orders (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        account_id INT UNSIGNED NOT NULL,
        product_id INT UNSIGNED NOT NULL,
        title VARCHAR(255) NOT NULL,
        total_cents INT UNSIGNED NOT NULL,
        status VARCHAR(16) NOT NULL,
        first_name VARCHAR(255) NOT NULL,
        last_name VARCHAR(255) NOT NULL,
        email VARCHAR(254) NOT NULL,
        phone VARCHAR(64) NOT NULL DEFAULT '',
        notes TEXT NOT NULL,
        created_at DATETIME(3) NOT NULL,
        completed_at DATETIME(3) NULL,
        PRIMARY KEY (id),
        KEY idx_orders_account (account_id, id)
      ) ${TABLE_OPTIONS}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE orders, certificate_uses, certificates');
  }
}
