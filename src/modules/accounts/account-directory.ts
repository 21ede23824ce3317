import { timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Secrets } from '../../common/crypto/secrets';
import { AppConfig } from '../../config/app-config';
import { Account } from './account.entity';

const MAX_ENTRIES = 10_000;

interface Entry {
  account: Account | null;
  expiresAt: number;
  /** The key last proven against the stored hash: the same key again needs no HMAC. */
  verifiedKey?: Buffer;
}

/**
 * Accounts by user ID for authentication, cached per process for AUTH_CACHE_TTL_MS so that an
 * authenticated request costs no query (an unknown ID is asked for again each time). A key rotated
 * by another process stops working within the TTL; in this process at once (evict). Concurrent
 * misses for one id share one query.
 */
@Injectable()
export class AccountDirectory {
  private readonly entries = new Map<number, Entry>();
  private readonly loading = new Map<number, Promise<Entry>>();
  private readonly ttlMs: number;

  constructor(
    @InjectRepository(Account) private readonly accounts: Repository<Account>,
    private readonly secrets: Secrets,
    config: AppConfig,
  ) {
    this.ttlMs = config.auth.cacheTtlMs;
  }

  /** The account whose user ID and API key these are, or null. Constant-time in the key. */
  async authenticate(id: number, apiKey: string): Promise<Account | null> {
    const entry = await this.entry(id);
    if (!entry.account) return null;
    if (isProven(entry, apiKey)) return entry.account;
    if (!this.secrets.matches(apiKey, entry.account.apiKeyHash)) return null;
    entry.verifiedKey = Buffer.from(apiKey, 'utf8');
    return entry.account;
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
    const cached = this.entries.get(id);
    return cached && cached.expiresAt > Date.now() ? cached : undefined;
  }

  private entry(id: number): Promise<Entry> {
    const cached = this.fresh(id);
    if (cached) return Promise.resolve(cached);
    let pending = this.loading.get(id);
    if (!pending) {
      pending = this.load(id);
      this.loading.set(id, pending);
    }
    return pending;
  }

  private async load(id: number): Promise<Entry> {
    try {
      const entry: Entry = {
        account: await this.accounts.findOneBy({ id }),
        expiresAt: Date.now() + this.ttlMs,
      };
      // An unknown user ID is not kept: the account may be created the next moment (by the CLI,
      // in another process), and probes of random IDs would crowd out real accounts.
      if (this.ttlMs > 0 && entry.account) {
        if (this.entries.size >= MAX_ENTRIES) {
          // Map keeps insertion order: drop the oldest entry.
          const oldest = this.entries.keys().next();
          if (!oldest.done) this.entries.delete(oldest.value);
        }
        this.entries.set(id, entry);
      }
      return entry;
    } finally {
      this.loading.delete(id);
    }
  }
}

/** Whether this key is the one last proven for the entry's account (constant time). */
function isProven(entry: Entry, apiKey: string): boolean {
  const known = entry.verifiedKey;
  if (!known) return false;
  const given = Buffer.from(apiKey, 'utf8');
  return known.length === given.length && timingSafeEqual(known, given);
}
