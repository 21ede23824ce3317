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

/**
 * What passport-http-bearer reads as the token of a header (AccessTokens checks the token's own
 * shape: lower-case hex).
 */
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

  /**
   * The header only. passport-http-bearer also reads `access_token` from the query and the body;
   * a query string is written to the request log (and to proxies' logs), and the API's bodies
   * are its own JSON, where `access_token` means nothing.
   */
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
    if (!account) return false;
    return principalOf(account, 'bearer');
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
