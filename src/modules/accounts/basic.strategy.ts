import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { BasicStrategy as PassportBasicStrategy } from 'passport-http';
import { AccountDirectory } from './account-directory';
import type { Principal } from './principal';

const USER_ID = /^[1-9]\d{0,9}$/;

/** HTTP Basic: username = the account's user ID, password = its API key. */
@Injectable()
export class BasicStrategy extends PassportStrategy(PassportBasicStrategy, 'basic') {
  constructor(private readonly directory: AccountDirectory) {
    super();
  }

  async validate(userId: string, apiKey: string): Promise<Principal | false> {
    if (!USER_ID.test(userId)) return false;
    const account = await this.directory.authenticate(Number(userId), apiKey);
    if (!account) return false;
    return { accountId: account.id, account, scheme: 'basic' };
  }
}
