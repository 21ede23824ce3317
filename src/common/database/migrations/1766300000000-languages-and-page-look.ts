import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The language the client pages, e-mails and SMS are written in, per account (English by default)
 * and per appointment (the one its booking page was shown in; null: booked otherwise, the
 * account's applies); and the pages' look: an accent colour and a logo (null: the house's, none).
 * Instant in MariaDB (columns added last, with a default or nullable).
 */
export class LanguagesAndPageLook1766300000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE accounts ' +
        "ADD COLUMN language VARCHAR(5) NOT NULL DEFAULT 'en', " +
        'ADD COLUMN accent_color CHAR(7) NULL, ' +
        'ADD COLUMN logo_url VARCHAR(2048) NULL',
    );
    await q.query('ALTER TABLE appointments ADD COLUMN language VARCHAR(5) NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE appointments DROP COLUMN language');
    await q.query(
      'ALTER TABLE accounts DROP COLUMN language, DROP COLUMN accent_color, DROP COLUMN logo_url',
    );
  }
}
