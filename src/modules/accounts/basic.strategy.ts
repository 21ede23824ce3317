import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { BasicStrategy as PassportBasicStrategy } from 'passport-http';
import { AccountDirectory } from './account-directory';
import { type Principal, principalOf } from './principal';
import { type ProvenCredentialCheck, ProvenCredentials } from './proven-credentials';

const USER_ID = /^[1-9]\d{0,9}$/;
/**
 * The canonical shape only (one space, the base64 alphabet): for such a header passport-http reads
 * the same user ID and key; any other shape is left to passport-http's own parsing.
 */
const CANONICAL_BASIC = /^basic ([A-Za-z0-9+/]+={0,2})$/i;

/** HTTP Basic: username = the account's user ID, password = its API key. */
@Injectable()
export class BasicStrategy
  extends PassportStrategy(PassportBasicStrategy, 'basic')
  implements ProvenCredentialCheck
{
  constructor(
    private readonly directory: AccountDirectory,
    proven: ProvenCredentials,
  ) {
    super();
    proven.register(this);
  }

  async validate(userId: string, apiKey: string): Promise<Principal | false> {
    if (!USER_ID.test(userId)) return false;
    const account = await this.directory.authenticate(Number(userId), apiKey);
    if (!account) return false;
    return principalOf(account, 'basic');
  }

  /** See ProvenCredentials: this user ID and key were proven moments ago (AccountDirectory). */
  proven(authorization: string): Principal | undefined {
    const encoded = CANONICAL_BASIC.exec(authorization)?.[1];
    if (encoded === undefined) return undefined;
    const parts = Buffer.from(encoded, 'base64').toString('utf8').split(':');
    // passport-http reads the key up to a second colon; such a header is left to it.
    if (parts.length !== 2 || !USER_ID.test(parts[0])) return undefined;
    const account = this.directory.provenAccount(Number(parts[0]), parts[1]);
    return account && principalOf(account, 'basic');
  }
}
