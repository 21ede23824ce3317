import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { BasicStrategy as PassportBasicStrategy } from 'passport-http';
import { AccountDirectory } from './keyed-directory';
import { type Principal, principalOf } from './principal';
import { type ProvenCredentialCheck, ProvenCredentials } from './proven-credentials';
import { BoundedMap } from '../../common/cache/bounded-map';

const USER_ID = /^[1-9]\d{0,9}$/;
/** The canonical shape, whose credentials passport-http reads alike (others are left to it). */
const CANONICAL_BASIC = /^basic ([A-Za-z0-9+/]+={0,2})$/i;

/** A Basic header's numeric user ID (or enterprise id) and key. */
export interface BasicCredentials {
  readonly id: number;
  readonly apiKey: string;
}

/**
 * Well-formed headers already decoded (decoding was ~3% of an authenticated GET in bench:http), the
 * oldest dropped first. Holding one proves nothing: the directory checks the key on every request.
 */
const MAX_PARSED_HEADERS = 10_000;
const parsedHeaders = new BoundedMap<string, BasicCredentials>(MAX_PARSED_HEADERS);

/** The id and key of a canonical Basic header, or undefined (the enterprise API, the fast path). */
export function basicCredentialsOf(
  authorization: string | undefined,
): BasicCredentials | undefined {
  if (authorization === undefined) return undefined;
  const known = parsedHeaders.get(authorization);
  if (known !== undefined) return known;
  const encoded = CANONICAL_BASIC.exec(authorization)?.[1];
  const credentials = encoded === undefined ? undefined : decode(encoded);
  if (credentials !== undefined) parsedHeaders.set(authorization, credentials);
  return credentials;
}

/**
 * Base64 credentials split at the first colon (RFC 7617 §2): passport-http splits at every colon,
 * so that `1:<key>:anything` would pass as `1:<key>`.
 */
function decode(encoded: string): BasicCredentials | undefined {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const userId = decoded.slice(0, colon);
  if (colon < 0 || !USER_ID.test(userId)) return undefined;
  return Object.freeze({ id: Number(userId), apiKey: decoded.slice(colon + 1) });
}

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
    // The request too, to read the credentials again: passport-http's split is not RFC 7617's.
    super({ passReqToCallback: true });
    proven.register(this);
  }

  async validate(request: FastifyRequest): Promise<Principal | false> {
    // passport-http called this: a `Basic` header, the base64 after its first space, as here.
    const credentials = decode((request.headers.authorization ?? '').split(' ')[1] ?? '');
    if (!credentials) return false;
    const account = await this.directory.authenticate(credentials.id, credentials.apiKey);
    return account ? principalOf(account, 'basic') : false;
  }

  /** See ProvenCredentials: this user ID and key were proven moments ago (AccountDirectory). */
  proven(authorization: string): Principal | undefined {
    const credentials = basicCredentialsOf(authorization);
    if (!credentials) return undefined;
    const account = this.directory.provenAccount(credentials.id, credentials.apiKey);
    return account && principalOf(account, 'basic');
  }
}
