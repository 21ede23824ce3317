import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { TtlCache } from '../../common/cache/ttl-cache';
import { Secrets } from '../../common/crypto/secrets';
import { AppConfig } from '../../config/app-config';
import { AuthRevocations, type RevocableCache, type Revocation } from '../accounts';
import type { OAuthClient } from './oauth-client.entity';
import { OAuthToken } from './oauth-token.entity';
import { InvalidGrantError } from './oauth.errors';

/** Access tokens are 32 random bytes as hex; anything else is not looked up. */
const TOKEN = /^[0-9a-f]{64}$/;
interface Entry {
  accountId: number;
  codeId: string | null;
  revoked: boolean;
}

interface ResultHeader {
  affectedRows: number;
}

/**
 * Access tokens: issued with a code's exchange, recognised by their keyed hash, disabled by the
 * disconnect endpoint or by a reuse of their code.
 *
 * A verified token is cached per process for AUTH_CACHE_TTL_MS, like AccountDirectory, so that a
 * Bearer request costs no query. A token disabled (by any process) stops working at once on every
 * API process: the disabling is announced after it commits (AuthRevocations), each process drops
 * the entry, and a read in flight meanwhile is not cached. Unknown tokens are not cached (they
 * would crowd out real ones).
 */
@Injectable()
export class AccessTokens implements RevocableCache {
  private readonly entries: TtlCache<string, Entry | null>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secrets: Secrets,
    config: AppConfig,
    private readonly revocations: AuthRevocations,
  ) {
    this.entries = new TtlCache(config.auth.cacheTtlMs);
    revocations.register(this);
  }

  /** The account a presented token acts on, or null when it is unknown or disabled. */
  async authenticate(token: string): Promise<number | null> {
    if (!TOKEN.test(token)) return null;
    const entry = await this.entry(this.secrets.hash(token));
    return entry && !entry.revoked ? entry.accountId : null;
  }

  /**
   * Synchronously, without a query: the account of a token whose fresh cache entry says it is
   * enabled; undefined otherwise (authenticate() decides).
   */
  provenAccountId(token: string): number | undefined {
    if (!TOKEN.test(token)) return undefined;
    const entry = this.entries.get(this.secrets.hash(token));
    return entry && !entry.revoked ? entry.accountId : undefined;
  }

  /** A new token for the account, written in the caller's transaction (the code's exchange). */
  async issue(
    tx: EntityManager,
    grant: { clientId: number; accountId: number; codeId: string },
  ): Promise<string> {
    const token = Secrets.generate(32);
    await tx.getRepository(OAuthToken).insert({
      tokenHash: this.secrets.hash(token),
      clientId: grant.clientId,
      accountId: grant.accountId,
      codeId: grant.codeId,
      createdAt: new Date(),
      revokedAt: null,
    });
    return token;
  }

  /**
   * `POST /oauth2/disconnect`: disables the token. An unknown or already disabled token changes
   * nothing (as RFC 7009 answers: the app's aim is met); another client's token is refused.
   */
  async disconnect(client: OAuthClient, token: string): Promise<void> {
    if (!TOKEN.test(token)) return;
    const hash = this.secrets.hash(token);
    const row = await this.dataSource.getRepository(OAuthToken).findOneBy({ tokenHash: hash });
    if (!row) return;
    if (row.clientId !== client.id)
      throw new InvalidGrantError('The access token was issued to another client.');
    await this.dataSource.query(
      'UPDATE oauth_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
      [new Date(), row.id],
    );
    await this.revocations.announce({ kind: 'token', id: hash });
  }

  /** Disables every token issued from a code (the code was presented again: it may be stolen). */
  async revokeIssuedFrom(codeId: string): Promise<number> {
    const result: ResultHeader = await this.dataSource.query(
      'UPDATE oauth_tokens SET revoked_at = ? WHERE code_id = ? AND revoked_at IS NULL',
      [new Date(), codeId],
    );
    await this.revocations.announce({ kind: 'code', id: codeId });
    return result.affectedRows;
  }

  forget(revocation: Revocation): void {
    if (revocation.kind === 'token') this.entries.delete(revocation.id);
    else if (revocation.kind === 'code') {
      const codeId = revocation.id;
      this.entries.deleteWhere((_, entry) => entry?.codeId === codeId);
    }
  }

  suspend(): void {
    this.entries.suspend();
  }

  resume(): void {
    this.entries.resume();
  }

  private entry(hash: string): Promise<Entry | null> {
    return this.entries.getOrLoad(hash, () => this.load(hash), isKnown);
  }

  private async load(hash: string): Promise<Entry | null> {
    const row = await this.dataSource.getRepository(OAuthToken).findOne({
      select: { accountId: true, codeId: true, revokedAt: true },
      where: { tokenHash: hash },
    });
    return row && { accountId: row.accountId, codeId: row.codeId, revoked: row.revokedAt !== null };
  }
}

/** Unknown tokens are not kept (they would crowd out real ones). */
const isKnown = (entry: Entry | null): boolean => entry !== null;
