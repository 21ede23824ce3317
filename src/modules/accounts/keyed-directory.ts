import { timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { TtlCache } from '../../common/cache/ttl-cache';
import { Secrets } from '../../common/crypto/secrets';
import { AppConfig } from '../../config/app-config';
import type { Account } from './account.entity';
import { AccountRepository } from './account.repository';
import { AuthRevocations, type RevocableCache, type Revocation } from './auth-revocations';
import type { Enterprise } from './enterprise.entity';
import { EnterpriseRepository } from './enterprise.repository';

/** What holds an API key: an account, an enterprise. */
export interface KeyHolder {
  id: number;
  apiKeyHash: string;
}

interface Entry<T> {
  holder: T | null;
  /** The key last proven against the stored hash: the same key again needs no HMAC. */
  verifiedKey?: Buffer;
}

/**
 * Key holders (accounts, enterprises) by id, cached per process for AUTH_CACHE_TTL_MS so that an
 * authenticated request costs no query; concurrent misses share one. A change announced through
 * AuthRevocations is forgotten at once; one announced by no one ends within the TTL.
 *
 * A key that does not match the cached holder is checked against the database, as a key for an
 * unknown id is: a refusal costs a query and a hash comparison either way, so that its time does
 * not tell which ids exist (and a new key works at once).
 */
export class KeyedDirectory<T extends KeyHolder> implements RevocableCache {
  private readonly entries: TtlCache<number, Entry<T>>;
  /** What a key is compared with where there is no holder's hash: a hash of no key. */
  private readonly noKeyHash: string;

  constructor(
    private readonly kind: 'account' | 'enterprise',
    private readonly load: (id: number) => Promise<T | null>,
    private readonly secrets: Secrets,
    config: AppConfig,
    revocations: AuthRevocations,
  ) {
    this.entries = new TtlCache(config.auth.cacheTtlMs);
    this.noKeyHash = secrets.hash(Secrets.generate());
    revocations.register(this);
  }

  /** The holder whose id and API key these are, or null. Constant-time in the key. */
  async authenticate(id: number, apiKey: string): Promise<T | null> {
    const cached = this.entries.get(id);
    if (cached?.holder) {
      if (isProven(cached, apiKey)) return cached.holder;
      if (this.matches(apiKey, cached.holder)) return prove(cached, cached.holder, apiKey);
    } else {
      this.matches(apiKey, null); // the comparison above, whose outcome is known
    }
    // A key the cached holder does not have, or none cached: the database decides.
    const entry = await this.entries.load(id, () => this.fromDatabase(id), isKnown);
    const matched = this.matches(apiKey, entry.holder);
    return matched && entry.holder ? prove(entry, entry.holder, apiKey) : null;
  }

  /** Without a query or an HMAC: the holder if authenticate() proved this key on a fresh entry. */
  proven(id: number, apiKey: string): T | undefined {
    const entry = this.entries.get(id);
    return entry?.holder && isProven(entry, apiKey) ? entry.holder : undefined;
  }

  /** The holder, as cached (e.g. a Bearer token's account: the token was verified, it is only read). */
  async find(id: number): Promise<T | null> {
    return (await this.entries.getOrLoad(id, () => this.fromDatabase(id), isKnown)).holder;
  }

  /** find() answered synchronously from a fresh entry; undefined when it would need a query. */
  cached(id: number): T | undefined {
    return this.entries.get(id)?.holder ?? undefined;
  }

  forget(revocation: Revocation): void {
    if (revocation.kind === this.kind) this.entries.delete(revocation.id);
  }

  suspend(): void {
    this.entries.suspend();
  }

  resume(): void {
    this.entries.resume();
  }

  /** Whether `apiKey` is the holder's, compared with a hash of no key when there is none. */
  private matches(apiKey: string, holder: T | null): boolean {
    return this.secrets.matches(apiKey, holder?.apiKeyHash ?? this.noKeyHash);
  }

  private async fromDatabase(id: number): Promise<Entry<T>> {
    return { holder: await this.load(id) };
  }
}

/** Accounts by user ID for authentication, cached for AUTH_CACHE_TTL_MS (see KeyedDirectory). */
@Injectable()
export class AccountDirectory extends KeyedDirectory<Account> {
  constructor(
    accounts: AccountRepository,
    secrets: Secrets,
    config: AppConfig,
    revocations: AuthRevocations,
  ) {
    super('account', (id) => accounts.findById(id), secrets, config, revocations);
  }

  provenAccount(id: number, apiKey: string): Account | undefined {
    return this.proven(id, apiKey);
  }

  cachedAccount(id: number): Account | undefined {
    return this.cached(id);
  }
}

/** Enterprises by id for the enterprise API's authentication, cached as accounts are. */
@Injectable()
export class EnterpriseDirectory extends KeyedDirectory<Enterprise> {
  constructor(
    enterprises: EnterpriseRepository,
    secrets: Secrets,
    config: AppConfig,
    revocations: AuthRevocations,
  ) {
    super('enterprise', (id) => enterprises.findById(id), secrets, config, revocations);
  }
}

/**
 * An unknown id is not kept: the holder may be created the next moment (by the CLI, in another
 * process), and probes of random ids would crowd out real ones.
 */
const isKnown = (entry: Entry<KeyHolder>): boolean => entry.holder !== null;

function prove<T>(entry: Entry<T>, holder: T, apiKey: string): T {
  entry.verifiedKey = Buffer.from(apiKey, 'utf8');
  return holder;
}

/** Whether this key is the one last proven for the entry's holder (constant time). */
function isProven(entry: Entry<unknown>, apiKey: string): boolean {
  const known = entry.verifiedKey;
  if (!known) return false;
  const given = Buffer.from(apiKey, 'utf8');
  return known.length === given.length && timingSafeEqual(known, given);
}
