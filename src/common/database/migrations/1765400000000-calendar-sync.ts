import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Calendar sync.
 *
 * - `busy_sources`: a calendar's external calendars (an iCalendar feed or a CalDAV collection),
 *   their credentials sealed with APP_SECRET, what the last sync saw (ETag, ctag) and its status.
 * - `external_busy_spans`: the busy time each source read, replaced whole by each good sync. A span
 *   is at most a day long (longer events are cut into days when stored), so availability reads a
 *   range on (calendar_id, starts_at) bounded on both sides, as it reads appointments.
 * - `calendar_feeds`: the secret token of a calendar's published iCalendar feed (its hash to find
 *   it, the token sealed to show it again).
 * - `appointments.sequence`: the iCalendar SEQUENCE of the appointment's event, raised by every
 *   reschedule and cancel, so a client's calendar replaces its copy.
 * - `accounts.calendar_sync_minutes`: how often the account's sources are read.
 */
export class CalendarSync1765400000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE busy_sources (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        account_id INT UNSIGNED NOT NULL,
        calendar_id INT UNSIGNED NOT NULL,
        type VARCHAR(8) NOT NULL,
        url VARCHAR(2048) NOT NULL,
        username VARCHAR(255) NOT NULL DEFAULT '',
        sealed_password TEXT NULL,
        state VARCHAR(16) NOT NULL DEFAULT 'pending',
        last_sync_at DATETIME(3) NULL,
        last_success_at DATETIME(3) NULL,
        last_error VARCHAR(1000) NULL,
        events_read INT UNSIGNED NOT NULL DEFAULT 0,
        version_tag VARCHAR(1000) NULL,
        next_sync_at DATETIME(3) NOT NULL,
        created_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        KEY idx_busy_sources_calendar (calendar_id, id),
        KEY idx_busy_sources_due (next_sync_at)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await q.query(`
      CREATE TABLE external_busy_spans (
        id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
        account_id INT UNSIGNED NOT NULL,
        calendar_id INT UNSIGNED NOT NULL,
        source_id INT UNSIGNED NOT NULL,
        starts_at DATETIME(3) NOT NULL,
        ends_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        KEY idx_external_busy_calendar (calendar_id, starts_at, ends_at),
        KEY idx_external_busy_source (source_id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await q.query(`
      CREATE TABLE calendar_feeds (
        calendar_id INT UNSIGNED NOT NULL,
        account_id INT UNSIGNED NOT NULL,
        token_hash CHAR(64) NOT NULL,
        sealed_token VARCHAR(255) NOT NULL,
        created_at DATETIME(3) NOT NULL,
        PRIMARY KEY (calendar_id),
        UNIQUE KEY uq_calendar_feeds_token (token_hash)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await q.query('ALTER TABLE appointments ADD COLUMN sequence INT UNSIGNED NOT NULL DEFAULT 0');
    await q.query(
      'ALTER TABLE accounts ADD COLUMN calendar_sync_minutes SMALLINT UNSIGNED NOT NULL DEFAULT 5',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE accounts DROP COLUMN calendar_sync_minutes');
    await q.query('ALTER TABLE appointments DROP COLUMN sequence');
    await q.query('DROP TABLE calendar_feeds, external_busy_spans, busy_sources');
  }
}
