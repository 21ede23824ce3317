import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Holds rationed (docs/pages.md, Holds from the pages):
 * - `slot_holds.origin`: `api` (an authenticated caller) or `page` (an anonymous visitor of the
 *   scheduling page); a page hold also records its visitor (a SHA-256 of the page session's
 *   cookie) and its network (a keyed hash of the client's IPv4 address or IPv6 /64), so that a
 *   visitor holds one time at once and a network a few. Counted by (account, origin, expiry).
 * - `accounts.hold_claims`: the row every hold's transaction writes first, so that two holds of an
 *   account are checked against its caps one after the other (a counter, never read).
 * - `accounts.max_live_holds` (API holds at once), `page_holds_per_address` (page holds at once
 *   from one network) and `page_hold_day_share` (the percentage of a day's times page holds may
 *   take).
 */
export class PageHolds1765700000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE slot_holds
      ADD COLUMN origin VARCHAR(8) NOT NULL DEFAULT 'api',
      ADD COLUMN visitor_hash BINARY(32) NULL,
      ADD COLUMN address_hash BINARY(32) NULL,
      ADD KEY idx_slot_holds_account_origin (account_id, origin, expires_at)`);
    await q.query(`ALTER TABLE accounts
      ADD COLUMN hold_claims BIGINT UNSIGNED NOT NULL DEFAULT 0,
      ADD COLUMN max_live_holds SMALLINT UNSIGNED NOT NULL DEFAULT 100,
      ADD COLUMN page_holds_per_address TINYINT UNSIGNED NOT NULL DEFAULT 3,
      ADD COLUMN page_hold_day_share TINYINT UNSIGNED NOT NULL DEFAULT 50`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE accounts
      DROP COLUMN hold_claims, DROP COLUMN max_live_holds,
      DROP COLUMN page_holds_per_address, DROP COLUMN page_hold_day_share`);
    await q.query(`ALTER TABLE slot_holds
      DROP KEY idx_slot_holds_account_origin,
      DROP COLUMN origin, DROP COLUMN visitor_hash, DROP COLUMN address_hash`);
  }
}
