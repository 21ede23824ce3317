import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { Account } from './account.entity';

const MAX_ENTRIES = 10_000;

interface Entry {
  account: Account | null;
  expiresAt: number;
}

/**
 * Accounts by user ID for authentication, cached per process for AUTH_CACHE_TTL_MS so that an
 * authenticated request costs no query. A key rotated by another process stops working within the
 * TTL; in this process at once (evict). Concurrent misses for one id share one query.
 */
@Injectable()
export class AccountDirectory {
  private readonly entries = new Map<number, Entry>();
  private readonly loading = new Map<number, Promise<Account | null>>();
  private readonly ttlMs: number;

  constructor(
    @InjectRepository(Account) private readonly accounts: Repository<Account>,
    config: AppConfig,
  ) {
    this.ttlMs = config.auth.cacheTtlMs;
  }

  async find(id: number): Promise<Account | null> {
    const cached = this.entries.get(id);
    if (cached && cached.expiresAt > Date.now()) return cached.account;
    let pending = this.loading.get(id);
    if (!pending) {
      pending = this.load(id);
      this.loading.set(id, pending);
    }
    return pending;
  }

  evict(id: number): void {
    this.entries.delete(id);
  }

  private async load(id: number): Promise<Account | null> {
    try {
      const account = await this.accounts.findOneBy({ id });
      if (this.ttlMs > 0) {
        if (this.entries.size >= MAX_ENTRIES) {
          // Map keeps insertion order: drop the oldest entry.
          const oldest = this.entries.keys().next();
          if (!oldest.done) this.entries.delete(oldest.value);
        }
        this.entries.set(id, { account, expiresAt: Date.now() + this.ttlMs });
      }
      return account;
    } finally {
      this.loading.delete(id);
    }
  }
}
