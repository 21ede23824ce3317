import { timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { TtlCache } from '../../common/cache/ttl-cache';
import { Secrets } from '../../common/crypto/secrets';
import { AppConfig } from '../../config/app-config';
import { Account } from './account.entity';

interface Entry {
  account: Account | null;
  /** The key last proven against the stored hash: the same key again needs no HMAC. */
  verifiedKey?: Buffer;
}

/**
 * Accounts by user ID for authentication, cached per process for AUTH_CACHE_TTL_MS so that an
 * authenticated request costs no query (an unknown ID is asked for again each time). A key rotated
 * by another process stops working within the TTL (the new one works at once, below); in this
 * process at once (evict). Concurrent misses for one id share one query.
 *
 * A key that does not match the cached account is checked against the database, as any key for an
 * unknown ID is: a refusal costs a query and two hashes compared either way, so that its time does
 * not tell which user IDs exist (issue 20: a wrong key answered in ~1 ms, an unknown ID in ~2 ms).
 */
@Injectable()
export class AccountDirectory {
  private readonly entries: TtlCache<number, Entry>;
  /** What a key is compared with where there is no account's hash: a hash of no key. */
  private readonly noKeyHash: string;

  constructor(
    @InjectRepository(Account) private readonly accounts: Repository<Account>,
    private readonly secrets: Secrets,
    config: AppConfig,
  ) {
    this.entries = new TtlCache(config.auth.cacheTtlMs);
    this.noKeyHash = secrets.hash(Secrets.generate());
  }

  /** The account whose user ID and API key these are, or null. Constant-time in the key. */
  async authenticate(id: number, apiKey: string): Promise<Account | null> {
    const cached = this.fresh(id);
    if (cached?.account) {
      if (isProven(cached, apiKey)) return cached.account;
      if (this.matches(apiKey, cached.account)) return prove(cached, cached.account, apiKey);
    } else {
      this.matches(apiKey, null); // the comparison above, whose outcome is known
    }
    // A key the cached account does not have, or no account cached: the database decides.
    const entry = await this.load(id);
    const matched = this.matches(apiKey, entry.account);
    return matched && entry.account ? prove(entry, entry.account, apiKey) : null;
  }

  /**
   * Synchronously, without a query or an HMAC: the account when this very key was proven for it by
   * authenticate() and its entry is still fresh; undefined otherwise (authenticate() decides).
   */
  provenAccount(id: number, apiKey: string): Account | undefined {
    const entry = this.fresh(id);
    return entry?.account && isProven(entry, apiKey) ? entry.account : undefined;
  }

  /** The account, as cached (Bearer tokens: the token was verified, the account is only read). */
  async find(id: number): Promise<Account | null> {
    return (await this.entry(id)).account;
  }

  /** find() answered synchronously from a fresh entry; undefined when it would need a query. */
  cachedAccount(id: number): Account | undefined {
    return this.fresh(id)?.account ?? undefined;
  }

  evict(id: number): void {
    this.entries.delete(id);
  }

  private fresh(id: number): Entry | undefined {
    return this.entries.get(id);
  }

  /** Whether `apiKey` is the account's, compared with a hash of no key when there is none. */
  private matches(apiKey: string, account: Account | null | undefined): boolean {
    return this.secrets.matches(apiKey, account?.apiKeyHash ?? this.noKeyHash);
  }

  private entry(id: number): Promise<Entry> {
    return this.entries.getOrLoad(id, () => this.query(id), isKnown);
  }

  /** The account as the database has it now (cached when it exists). */
  private load(id: number): Promise<Entry> {
    return this.entries.load(id, () => this.query(id), isKnown);
  }

  private async query(id: number): Promise<Entry> {
    return { account: await this.accounts.findOneBy({ id }) };
  }
}

/**
 * An unknown user ID is not kept: the account may be created the next moment (by the CLI, in
 * another process), and probes of random IDs would crowd out real accounts.
 */
const isKnown = (entry: Entry): boolean => entry.account !== null;

/** Remembers `apiKey` as proven for the entry's account. */
function prove(entry: Entry, account: Account, apiKey: string): Account {
  entry.verifiedKey = Buffer.from(apiKey, 'utf8');
  return account;
}

/** Whether this key is the one last proven for the entry's account (constant time). */
function isProven(entry: Entry, apiKey: string): boolean {
  const known = entry.verifiedKey;
  if (!known) return false;
  const given = Buffer.from(apiKey, 'utf8');
  return known.length === given.length && timingSafeEqual(known, given);
}
