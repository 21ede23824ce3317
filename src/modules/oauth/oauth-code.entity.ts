import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Account } from '../accounts';
import { OAuthClient } from './oauth-client.entity';

/**
 * An authorization code, issued when an account's owner allows an app: single use, short-lived,
 * bound to the client, the redirect URI and (PKCE) the code challenge of the authorization request.
 */
@Entity('oauth_codes')
@Index('uq_oauth_codes_hash', ['codeHash'], { unique: true })
@Index('idx_oauth_codes_expires', ['expiresAt'])
export class OAuthCode {
  /** BIGINT, read as a string (exact beyond 2^53). */
  @PrimaryGeneratedColumn({ type: 'bigint', unsigned: true })
  id!: string;

  /** Keyed hash of the code. */
  @Column({ name: 'code_hash', type: 'char', length: 64 })
  codeHash!: string;

  @ForeignKey(() => OAuthClient, {
    name: 'fk_oauth_codes_client',
    onDelete: 'CASCADE',
    onUpdate: 'RESTRICT',
  })
  @Column({ name: 'client_id', type: 'int', unsigned: true })
  clientId!: number;

  @ForeignKey(() => Account, {
    name: 'fk_oauth_codes_account',
    onDelete: 'CASCADE',
    onUpdate: 'RESTRICT',
  })
  @Column({ name: 'account_id', type: 'int', unsigned: true })
  accountId!: number;

  /** The redirect URI of the authorization request: the token request must send the same. */
  @Column({ name: 'redirect_uri', type: 'varchar', length: 2048 })
  redirectUri!: string;

  /** PKCE (S256) challenge of the authorization request, when it sent one. */
  @Column({ name: 'code_challenge', type: 'varchar', length: 128, nullable: true })
  codeChallenge!: string | null;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt!: Date;

  /** When the code was exchanged; set once, by one conditional UPDATE. */
  @Column({ name: 'consumed_at', type: 'datetime', precision: 3, nullable: true })
  consumedAt!: Date | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;
}
