import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Account } from '../accounts';
import { CascadeTo } from '../../common/database/cascade-to';
import { OAuthClient } from './oauth-client.entity';
import { OAuthCode } from './oauth-code.entity';

/** An access token; the contract has no expiry: it works until disconnected or its code reused. */
@Entity('oauth_tokens')
@Index('uq_oauth_tokens_hash', ['tokenHash'], { unique: true })
@Index('idx_oauth_tokens_code', ['codeId'])
export class OAuthToken {
  /** BIGINT, read as a string (exact beyond 2^53). */
  @PrimaryGeneratedColumn({ type: 'bigint', unsigned: true })
  id!: string;

  /** Keyed hash of the token. */
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  @CascadeTo(() => OAuthClient, 'fk_oauth_tokens_client')
  @Column({ name: 'client_id', type: 'int', unsigned: true })
  clientId!: number;

  @CascadeTo(() => Account, 'fk_oauth_tokens_account')
  @Column({ name: 'account_id', type: 'int', unsigned: true })
  accountId!: number;

  /** The code it was issued for (NULL once old codes are purged). */
  @ForeignKey(() => OAuthCode, {
    name: 'fk_oauth_tokens_code',
    onDelete: 'SET NULL',
    onUpdate: 'RESTRICT',
  })
  @Column({ name: 'code_id', type: 'bigint', unsigned: true, nullable: true })
  codeId!: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;

  /** When the token was disabled (disconnect, or its code was reused); null while it works. */
  @Column({ name: 'revoked_at', type: 'datetime', precision: 3, nullable: true })
  revokedAt!: Date | null;
}
