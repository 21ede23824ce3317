import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TABLE_OPTIONS } from './table-options';

/** What every catalog table (CatalogRow: an account's rows, soft-deleted) begins with. */
const CATALOG_ROW_START = `id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        account_id INT UNSIGNED NOT NULL`;

/** What it ends with: the soft delete and times, and its keys (by id; the account's rows by id). */
const catalogRowEnd = (table: string) => `deleted_at DATETIME(3) NULL,
        created_at DATETIME(3) NOT NULL,
        updated_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        KEY idx_${table}_account (account_id, id)`;

/** The catalog (calendars, types, addons, labels, forms, classes, products, coupons) and settings. */
export class Catalog1763900000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE accounts
        ADD COLUMN min_hours_in_advance INT UNSIGNED NOT NULL DEFAULT 0,
        ADD COLUMN max_days_in_advance INT UNSIGNED NOT NULL DEFAULT 60,
        ADD COLUMN require_phone TINYINT NOT NULL DEFAULT 0,
        ADD COLUMN send_confirmation_email TINYINT NOT NULL DEFAULT 1,
        ADD COLUMN send_sms TINYINT NOT NULL DEFAULT 1`);
    await q.query(`
      CREATE TABLE calendars (
        ${CATALOG_ROW_START},
        name VARCHAR(255) NOT NULL,
        email VARCHAR(254) NOT NULL DEFAULT '',
        reply_to VARCHAR(254) NOT NULL DEFAULT '',
        description TEXT NOT NULL,
        location VARCHAR(255) NOT NULL DEFAULT '',
        timezone VARCHAR(64) NOT NULL,
        image VARCHAR(2048) NOT NULL DEFAULT '',
        thumbnail VARCHAR(2048) NOT NULL DEFAULT '',
        hours JSON NOT NULL,
        overrides JSON NOT NULL,
        ${catalogRowEnd('calendars')}
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE appointment_types (
        ${CATALOG_ROW_START},
        name VARCHAR(255) NOT NULL,
        active TINYINT NOT NULL DEFAULT 1,
        description TEXT NOT NULL,
        duration SMALLINT UNSIGNED NOT NULL,
        price_cents INT UNSIGNED NOT NULL DEFAULT 0,
        category VARCHAR(255) NOT NULL DEFAULT '',
        color VARCHAR(32) NOT NULL DEFAULT '',
        private TINYINT NOT NULL DEFAULT 0,
        kind VARCHAR(8) NOT NULL,
        class_size INT UNSIGNED NULL,
        padding_before SMALLINT UNSIGNED NOT NULL DEFAULT 0,
        padding_after SMALLINT UNSIGNED NOT NULL DEFAULT 0,
        image VARCHAR(2048) NOT NULL DEFAULT '',
        slot_interval SMALLINT UNSIGNED NULL,
        min_hours_in_advance INT UNSIGNED NULL,
        max_days_in_advance INT UNSIGNED NULL,
        require_sms_opt_in TINYINT NOT NULL DEFAULT 0,
        ${catalogRowEnd('appointment_types')}
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE appointment_type_calendars (
        appointment_type_id INT UNSIGNED NOT NULL,
        calendar_id INT UNSIGNED NOT NULL,
        PRIMARY KEY (appointment_type_id, calendar_id),
        KEY idx_appointment_type_calendars_calendar (calendar_id)
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE appointment_type_addons (
        appointment_type_id INT UNSIGNED NOT NULL,
        addon_id INT UNSIGNED NOT NULL,
        PRIMARY KEY (appointment_type_id, addon_id),
        KEY idx_appointment_type_addons_addon (addon_id)
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE appointment_type_forms (
        appointment_type_id INT UNSIGNED NOT NULL,
        form_id INT UNSIGNED NOT NULL,
        position SMALLINT UNSIGNED NOT NULL DEFAULT 0,
        PRIMARY KEY (appointment_type_id, form_id),
        KEY idx_appointment_type_forms_form (form_id)
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE addons (
        ${CATALOG_ROW_START},
        name VARCHAR(255) NOT NULL,
        duration SMALLINT UNSIGNED NOT NULL DEFAULT 0,
        price_cents INT UNSIGNED NOT NULL DEFAULT 0,
        private TINYINT NOT NULL DEFAULT 0,
        ${catalogRowEnd('addons')}
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE labels (
        ${CATALOG_ROW_START},
        name VARCHAR(255) NOT NULL,
        color VARCHAR(32) NOT NULL,
        ${catalogRowEnd('labels')}
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE forms (
        ${CATALOG_ROW_START},
        name VARCHAR(255) NOT NULL,
        description TEXT NOT NULL,
        hidden TINYINT NOT NULL DEFAULT 0,
        ${catalogRowEnd('forms')}
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE form_fields (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        form_id INT UNSIGNED NOT NULL,
        name VARCHAR(255) NOT NULL,
        type VARCHAR(16) NOT NULL,
        options JSON NULL,
        required TINYINT NOT NULL DEFAULT 0,
        line_count TINYINT UNSIGNED NULL,
        position SMALLINT UNSIGNED NOT NULL,
        deleted_at DATETIME(3) NULL,
        PRIMARY KEY (id),
        KEY idx_form_fields_form (form_id, position)
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE classes (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        account_id INT UNSIGNED NOT NULL,
        appointment_type_id INT UNSIGNED NOT NULL,
        calendar_id INT UNSIGNED NOT NULL,
        name VARCHAR(255) NOT NULL,
        starts_at DATETIME(3) NOT NULL,
        created_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        KEY idx_classes_account_start (account_id, starts_at),
        KEY idx_classes_calendar_start (calendar_id, starts_at),
        KEY idx_classes_type_start (appointment_type_id, starts_at)
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE products (
        ${CATALOG_ROW_START},
        name VARCHAR(255) NOT NULL,
        description TEXT NOT NULL,
        price_cents INT UNSIGNED NOT NULL DEFAULT 0,
        kind VARCHAR(16) NOT NULL,
        hidden TINYINT NOT NULL DEFAULT 0,
        expires_days INT UNSIGNED NULL,
        ${catalogRowEnd('products')}
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE product_appointment_types (
        product_id INT UNSIGNED NOT NULL,
        appointment_type_id INT UNSIGNED NOT NULL,
        count INT UNSIGNED NOT NULL,
        PRIMARY KEY (product_id, appointment_type_id),
        KEY idx_product_appointment_types_type (appointment_type_id)
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE coupons (
        ${CATALOG_ROW_START},
        code VARCHAR(64) NULL,
        name VARCHAR(255) NOT NULL,
        discount_type VARCHAR(16) NOT NULL,
        discount_amount INT UNSIGNED NOT NULL,
        expiration DATE NULL,
        ${catalogRowEnd('coupons')},
        UNIQUE KEY uq_coupons_account_code (account_id, code)
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE coupon_appointment_types (
        coupon_id INT UNSIGNED NOT NULL,
        appointment_type_id INT UNSIGNED NOT NULL,
        PRIMARY KEY (coupon_id, appointment_type_id),
        KEY idx_coupon_appointment_types_type (appointment_type_id)
      ) ${TABLE_OPTIONS}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE coupon_appointment_types, coupons, product_appointment_types, products, classes,
        form_fields, forms, labels, addons, appointment_type_forms, appointment_type_addons,
        appointment_type_calendars, appointment_types, calendars`);
    await q.query(`
      ALTER TABLE accounts
        DROP COLUMN min_hours_in_advance,
        DROP COLUMN max_days_in_advance,
        DROP COLUMN require_phone,
        DROP COLUMN send_confirmation_email,
        DROP COLUMN send_sms`);
  }
}
