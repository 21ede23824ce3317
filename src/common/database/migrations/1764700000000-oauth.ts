import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TABLE_OPTIONS } from './table-options';

/**
 * OAuth 2.0 (authorization code flow). Every secret is stored as its keyed hash (HMAC-SHA256 with
 * APP_SECRET, hex): client secrets, codes and access tokens are 256-bit random values, so a keyed
 * hash is enough (no slow hash needed) and a lookup is one unique-key read.
 *
 * - `oauth_clients`: partner apps registered by the operator; `client_id` is public and random,
 *   `redirect_uris` a JSON array of the exact URIs allowed.
 * - `oauth_codes`: authorization codes, single use (`consumed_at` set by one conditional UPDATE),
 *   bound to client, account, redirect URI and the PKCE challenge; valid 10 minutes.
 * - `oauth_tokens`: access tokens, each from the code it was issued for (`code_id`: a reused code
 *   revokes them); `revoked_at` set by the disconnect endpoint. Old codes may be purged: their
 *   tokens keep working (`code_id` becomes NULL).
 */
export class OAuth1764700000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE oauth_clients (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        client_id VARCHAR(64) NOT NULL,
        secret_hash CHAR(64) NOT NULL,
        name VARCHAR(255) NOT NULL,
        redirect_uris JSON NOT NULL,
        created_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uq_oauth_clients_client_id (client_id)
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE oauth_codes (
        id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
        code_hash CHAR(64) NOT NULL,
        client_id INT UNSIGNED NOT NULL,
        account_id INT UNSIGNED NOT NULL,
        redirect_uri VARCHAR(2048) NOT NULL,
        code_challenge VARCHAR(128) NULL,
        expires_at DATETIME(3) NOT NULL,
        consumed_at DATETIME(3) NULL,
        created_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uq_oauth_codes_hash (code_hash),
        KEY idx_oauth_codes_expires (expires_at),
        CONSTRAINT fk_oauth_codes_client FOREIGN KEY (client_id)
          REFERENCES oauth_clients (id) ON DELETE CASCADE ON UPDATE RESTRICT,
        CONSTRAINT fk_oauth_codes_account FOREIGN KEY (account_id)
          REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE RESTRICT
      ) ${TABLE_OPTIONS}`);
    await q.query(`
      CREATE TABLE oauth_tokens (
        id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
        token_hash CHAR(64) NOT NULL,
        client_id INT UNSIGNED NOT NULL,
        account_id INT UNSIGNED NOT NULL,
        code_id BIGINT UNSIGNED NULL,
        created_at DATETIME(3) NOT NULL,
        revoked_at DATETIME(3) NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uq_oauth_tokens_hash (token_hash),
        KEY idx_oauth_tokens_code (code_id),
        CONSTRAINT fk_oauth_tokens_client FOREIGN KEY (client_id)
          REFERENCES oauth_clients (id) ON DELETE CASCADE ON UPDATE RESTRICT,
        CONSTRAINT fk_oauth_tokens_account FOREIGN KEY (account_id)
          REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE RESTRICT,
        CONSTRAINT fk_oauth_tokens_code FOREIGN KEY (code_id)
          REFERENCES oauth_codes (id) ON DELETE SET NULL ON UPDATE RESTRICT
      ) ${TABLE_OPTIONS}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE oauth_tokens, oauth_codes, oauth_clients');
  }
}
