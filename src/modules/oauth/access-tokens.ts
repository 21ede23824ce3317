import { Injectable } from '@nestjs/common';
import { TtlCache } from '../../common/cache/ttl-cache';
import { Secrets } from '../../common/crypto/secrets';
import { AppConfig } from '../../config/app-config';
import { AuthRevocations, type RevocableCache, type Revocation } from '../accounts';
import { OAuthTokenRepository } from './oauth-token.repository';

/** Access tokens are 32 random bytes as hex; anything else is not looked up. */
export const TOKEN = /^[0-9a-f]{64}$/;
interface Entry {
  accountId: number;
  codeId: string | null;
  revoked: boolean;
}

/**
 * Access tokens as Bearer requests present them, recognised by their keyed hash.
 *
 * A verified token is cached per process for AUTH_CACHE_TTL_MS, like AccountDirectory, so that a
 * Bearer request costs no query. A token disabled by any process stops working at once on every
 * API process: the disabling is announced after it commits (AuthRevocations), each process drops
 * the entry, and a read in flight meanwhile is not cached.
 */
@Injectable()
export class AccessTokens implements RevocableCache {
  private readonly entries: TtlCache<string, Entry | null>;

  constructor(
    private readonly tokens: OAuthTokenRepository,
    private readonly secrets: Secrets,
    config: AppConfig,
    revocations: AuthRevocations,
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

  /** Without a query: the account of a token cached fresh and enabled; else undefined. */
  provenAccountId(token: string): number | undefined {
    if (!TOKEN.test(token)) return undefined;
    const entry = this.entries.get(this.secrets.hash(token));
    return entry && !entry.revoked ? entry.accountId : undefined;
  }

  forget(revocation: Revocation): void {
    if (revocation.kind === 'token') this.entries.delete(revocation.id);
    else if (revocation.kind === 'code')
      this.entries.deleteWhere((_, entry) => entry?.codeId === revocation.id);
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
    const row = await this.tokens.grantOf(hash);
    return row && { accountId: row.accountId, codeId: row.codeId, revoked: row.revokedAt !== null };
  }
}

/** Unknown tokens are not kept (they would crowd out real ones). */
const isKnown = (entry: Entry | null): boolean => entry !== null;
