import { Injectable } from '@nestjs/common';
import { Secrets } from '../../common/crypto/secrets';
import { AppConfig } from '../../config/app-config';
import type { Account } from './account.entity';
import { AccountRepository } from './account.repository';
import { AuthRevocations } from './auth-revocations';
import { KeyedDirectory } from './keyed-directory';

/**
 * Accounts by user ID for authentication, cached per process for AUTH_CACHE_TTL_MS and forgotten
 * on every API process when a change is announced (see KeyedDirectory: what is cached, how a wrong
 * key costs what an unknown ID costs; AuthRevocations: how changes reach the processes).
 */
@Injectable()
export class AccountDirectory extends KeyedDirectory<Account> {
  constructor(
    accounts: AccountRepository,
    secrets: Secrets,
    config: AppConfig,
    revocations: AuthRevocations,
  ) {
    super('account', (id) => accounts.findById(id), secrets, config.auth.cacheTtlMs, revocations);
  }

  /** See KeyedDirectory.proven. */
  provenAccount(id: number, apiKey: string): Account | undefined {
    return this.proven(id, apiKey);
  }

  /** See KeyedDirectory.cached. */
  cachedAccount(id: number): Account | undefined {
    return this.cached(id);
  }
}
