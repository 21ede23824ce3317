import type { IncomingHttpHeaders } from 'node:http';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy as PassportBearerStrategy } from 'passport-http-bearer';
import {
  AccountDirectory,
  type Principal,
  type ProvenCredentialCheck,
  ProvenCredentials,
  principalOf,
} from '../accounts';
import { AccessTokens } from './access-tokens';

/** The token of a header as passport-http-bearer reads it (AccessTokens checks its shape). */
const CANONICAL_BEARER = /^bearer ([0-9a-f]{64})$/i;

/** `Authorization: Bearer <access token>` (RFC 6750): the token's account, as OAuth granted it. */
@Injectable()
export class BearerStrategy
  extends PassportStrategy(PassportBearerStrategy, 'bearer')
  implements ProvenCredentialCheck
{
  constructor(
    private readonly tokens: AccessTokens,
    private readonly accounts: AccountDirectory,
    proven: ProvenCredentials,
  ) {
    super();
    proven.register(this);
  }

  /** The header only: a query's `access_token` would be logged, and a body's means nothing here. */
  override authenticate(request: { headers: IncomingHttpHeaders }, options?: object): void {
    const headerOnly = { headers: { authorization: request.headers.authorization } };
    super.authenticate(
      headerOnly as Parameters<PassportBearerStrategy<never>['authenticate']>[0],
      options,
    );
  }

  async validate(token: string): Promise<Principal | false> {
    const accountId = await this.tokens.authenticate(token);
    if (accountId === null) return false;
    const account = await this.accounts.find(accountId);
    return account ? principalOf(account, 'bearer') : false;
  }

  /** See ProvenCredentials: the token and its account are fresh in their caches. */
  proven(authorization: string): Principal | undefined {
    const token = CANONICAL_BEARER.exec(authorization)?.[1];
    if (token === undefined) return undefined;
    const accountId = this.tokens.provenAccountId(token);
    const account = accountId === undefined ? undefined : this.accounts.cachedAccount(accountId);
    return account && principalOf(account, 'bearer');
  }
}
