import { Injectable } from '@nestjs/common';
import { ForbiddenError, UnauthorizedError } from '../../common/errors/domain-error';
import type { Account } from './account.entity';
import { AccountNotFoundError } from './accounts.errors';
import { basicCredentialsOf } from './basic.strategy';
import { AccountDirectory, EnterpriseDirectory } from './keyed-directory';
import type { Enterprise } from './enterprise.entity';

/**
 * Who may pass the enterprise API: the enterprise of the Basic credentials (ids are looked up among
 * enterprises only) and the member it names. Each step answers from the caches when it can, so that
 * a request through the enterprise costs about what the member's own does.
 */
@Injectable()
export class EnterpriseGate {
  constructor(
    private readonly enterprises: EnterpriseDirectory,
    private readonly accounts: AccountDirectory,
  ) {}

  /** The enterprise of these credentials; 401 `unauthorized` otherwise (any scheme but Basic too). */
  enterprise(authorization: string | undefined): Enterprise | Promise<Enterprise> {
    const credentials = basicCredentialsOf(authorization);
    if (!credentials) throw new UnauthorizedError();
    const proven = this.enterprises.proven(credentials.id, credentials.apiKey);
    if (proven) return proven;
    return this.enterprises.authenticate(credentials.id, credentials.apiKey).then((enterprise) => {
      if (!enterprise) throw new UnauthorizedError();
      return enterprise;
    });
  }

  /** The account `userId` if it is the enterprise's member; 404 if none, else 403 `forbidden`. */
  member(enterprise: Enterprise, userId: number): Account | Promise<Account> {
    const cached = this.accounts.cachedAccount(userId);
    if (cached) return memberOf(enterprise, userId, cached);
    return this.accounts.find(userId).then((account) => memberOf(enterprise, userId, account));
  }
}

function memberOf(enterprise: Enterprise, userId: number, account: Account | null): Account {
  if (!account) throw new AccountNotFoundError(userId);
  if (account.enterpriseId !== enterprise.id) throw new ForbiddenError();
  return account;
}
