import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Account } from '../accounts';
import { CascadeTo } from '../../common/database/cascade-to';
import { OAuthClient } from './oauth-client.entity';

/** An authorization code: single use, short-lived, bound to client, redirect URI and challenge. */
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

  @CascadeTo(() => OAuthClient, 'fk_oauth_codes_client')
  @Column({ name: 'client_id', type: 'int', unsigned: true })
  clientId!: number;

  @CascadeTo(() => Account, 'fk_oauth_codes_account')
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
