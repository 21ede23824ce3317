import type { IncomingHttpHeaders } from 'node:http';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy as PassportBearerStrategy } from 'passport-http-bearer';
import { AccountDirectory } from '../accounts/account-directory';
import type { Principal } from '../accounts/principal';
import { AccessTokens } from './access-tokens';

/** `Authorization: Bearer <access token>` (RFC 6750): the token's account, as OAuth granted it. */
@Injectable()
export class BearerStrategy extends PassportStrategy(PassportBearerStrategy, 'bearer') {
  constructor(
    private readonly tokens: AccessTokens,
    private readonly accounts: AccountDirectory,
  ) {
    super();
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
    return { accountId, account, scheme: 'bearer' };
  }
}
