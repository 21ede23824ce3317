import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { BasicStrategy as PassportBasicStrategy } from 'passport-http';
import { AccountDirectory } from './account-directory';
import { type Principal, principalOf } from './principal';
import { type ProvenCredentialCheck, ProvenCredentials } from './proven-credentials';
import { BoundedMap } from '../../common/cache/bounded-map';

const USER_ID = /^[1-9]\d{0,9}$/;
/**
 * The canonical shape only (one space, the base64 alphabet): for such a header passport-http reads
 * the same user ID and key; any other shape is left to passport-http's own parsing.
 */
const CANONICAL_BASIC = /^basic ([A-Za-z0-9+/]+={0,2})$/i;

/**
 * The user ID and key of Basic credentials (base64 already decoded): the user ID is what precedes
 * the first colon, the key all that follows it (RFC 7617 §2). passport-http splits at every colon
 * and hands over the second part, so that `1:<key>:anything` passed as `1:<key>`.
 */
export function splitCredentials(decoded: string): { userId: string; apiKey: string } | undefined {
  const colon = decoded.indexOf(':');
  return colon < 0
    ? undefined
    : { userId: decoded.slice(0, colon), apiKey: decoded.slice(colon + 1) };
}

/** A Basic header's numeric user ID (or enterprise id) and key. */
export interface BasicCredentials {
  readonly id: number;
  readonly apiKey: string;
}

/**
 * Headers already read, by their text: a client sends the same header on every request, and
 * decoding it (a regex, base64, a split, another regex) was ~3% of an authenticated GET in
 * bench:http. Only well-formed headers are kept, at most MAX_PARSED_HEADERS (the oldest dropped first,
 * so that a client sending ever new headers costs memory no more than a parse each). Holding the
 * header tells nothing: whether the key is right is still decided by the directory, in constant
 * time, on every request.
 */
const MAX_PARSED_HEADERS = 10_000;
const parsedHeaders = new BoundedMap<string, BasicCredentials>(MAX_PARSED_HEADERS);

/**
 * The numeric user ID (or enterprise id) and key of a Basic `Authorization` header in the canonical
 * shape (`Basic <base64>`, one space), or undefined: what the enterprise API accepts, and what the
 * fast path of the account's own Basic credentials recognises.
 */
export function basicCredentialsOf(
  authorization: string | undefined,
): BasicCredentials | undefined {
  if (authorization === undefined) return undefined;
  const known = parsedHeaders.get(authorization);
  if (known !== undefined) return known;
  const credentials = parseBasic(authorization);
  if (credentials !== undefined) {
    parsedHeaders.set(authorization, credentials);
  }
  return credentials;
}

function parseBasic(authorization: string): BasicCredentials | undefined {
  const encoded = CANONICAL_BASIC.exec(authorization)?.[1];
  if (encoded === undefined) return undefined;
  const credentials = splitCredentials(Buffer.from(encoded, 'base64').toString('utf8'));
  if (!credentials || !USER_ID.test(credentials.userId)) return undefined;
  return Object.freeze({ id: Number(credentials.userId), apiKey: credentials.apiKey });
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
    // passport-http called this, so the header is `Basic <base64>` with a colon in it; it reads the
    // base64 as the part after the first space, as here.
    const encoded = (request.headers.authorization ?? '').split(' ')[1] ?? '';
    const credentials = splitCredentials(Buffer.from(encoded, 'base64').toString('utf8'));
    if (!credentials || !USER_ID.test(credentials.userId)) return false;
    const { userId, apiKey } = credentials;
    const account = await this.directory.authenticate(Number(userId), apiKey);
    if (!account) return false;
    return principalOf(account, 'basic');
  }

  /** See ProvenCredentials: this user ID and key were proven moments ago (AccountDirectory). */
  proven(authorization: string): Principal | undefined {
    const credentials = basicCredentialsOf(authorization);
    if (!credentials) return undefined;
    const account = this.directory.provenAccount(credentials.id, credentials.apiKey);
    return account && principalOf(account, 'basic');
  }
}
