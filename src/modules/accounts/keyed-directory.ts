import { timingSafeEqual } from 'node:crypto';
import { TtlCache } from '../../common/cache/ttl-cache';
import { Secrets } from '../../common/crypto/secrets';
import type { AuthRevocations, RevocableCache, Revocation } from './auth-revocations';

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
 * Key holders (accounts, enterprises) by id for authentication, cached per process for `ttlMs` so
 * that an authenticated request costs no query (an unknown id is asked for again each time). A
 * change to a holder (a rotated key…) announced through AuthRevocations is forgotten at once by
 * every API process, and while a process may miss announcements nothing cached is trusted; a
 * change announced by no one ends within the TTL (a new key works at once anyway, below).
 * Concurrent misses for one id share one query.
 *
 * A key that does not match the cached holder is checked against the database, as any key for an
 * unknown id is: a refusal costs a query and two hashes compared either way, so that its time does
 * not tell which ids exist (a wrong key answered in ~1 ms, an unknown ID in ~2 ms).
 */
export class KeyedDirectory<T extends KeyHolder> implements RevocableCache {
  private readonly entries: TtlCache<number, Entry<T>>;
  /** What a key is compared with where there is no holder's hash: a hash of no key. */
  private readonly noKeyHash: string;

  constructor(
    private readonly kind: 'account' | 'enterprise',
    private readonly load: (id: number) => Promise<T | null>,
    private readonly secrets: Secrets,
    ttlMs: number,
    revocations: AuthRevocations,
  ) {
    this.entries = new TtlCache(ttlMs);
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

  /**
   * Synchronously, without a query or an HMAC: the holder when this very key was proven for it by
   * authenticate() and its entry is still fresh; undefined otherwise (authenticate() decides).
   */
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

/**
 * An unknown id is not kept: the holder may be created the next moment (by the CLI, in another
 * process), and probes of random ids would crowd out real ones.
 */
const isKnown = (entry: Entry<KeyHolder>): boolean => entry.holder !== null;

/** Remembers `apiKey` as proven for the entry's holder. */
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
