import { Command } from '@nestjs/cqrs';
import type { Secrets } from '../../common/crypto/secrets';
import type { OAuthClient } from './oauth-client.entity';
import type { OAuthClientRepository } from './oauth-client.repository';
import {
  InvalidClientError,
  InvalidRequestError,
  MalformedBasicCredentialsError,
  MissingParameterError,
} from './oauth.errors';

/** The single value of a form parameter; a repeated one is invalid_request (RFC 6749 §3.2). */
export function param(form: URLSearchParams, name: string): string | undefined {
  const values = form.getAll(name);
  if (values.length > 1) throw new InvalidRequestError(`The parameter "${name}" is repeated.`);
  return values[0] === '' ? undefined : values[0];
}

export function requiredParam(form: URLSearchParams, name: string): string {
  const value = param(form, name);
  if (value === undefined) throw new MissingParameterError(name);
  return value;
}

/** RFC 6749 §2.3.1: each half of Basic credentials is form-urlencoded before base64. */
function formDecode(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}

function basicCredentials(header: string): { id: string; secret: string } {
  const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(header);
  if (!match) throw new MalformedBasicCredentialsError();
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new MalformedBasicCredentialsError();
  try {
    return {
      id: formDecode(decoded.slice(0, colon)),
      secret: formDecode(decoded.slice(colon + 1)),
    };
  } catch {
    throw new MalformedBasicCredentialsError();
  }
}

/** A token or disconnect request: its Authorization header and its form, the client's to prove. */
export abstract class ClientRequestCommand<R> extends Command<R> {
  constructor(
    readonly authorization: string | undefined,
    readonly form: URLSearchParams,
  ) {
    super();
  }
}

/**
 * The client of a token or disconnect request: HTTP Basic or `client_id` and `client_secret` in the
 * body, never both (RFC 6749 §2.3.1). Missing parameters are invalid_request (the contract); wrong
 * credentials are invalid_client, in a time that does not tell which client ids exist.
 */
export async function authenticateClient(
  clients: OAuthClientRepository,
  secrets: Secrets,
  authorization: string | undefined,
  form: URLSearchParams,
): Promise<OAuthClient> {
  const bodyId = param(form, 'client_id');
  const bodySecret = param(form, 'client_secret');
  let id: string;
  let secret: string;
  if (authorization !== undefined) {
    if (bodySecret !== undefined)
      throw new InvalidRequestError(
        'Send the client credentials once: in the Authorization header or in the body, not both.',
      );
    ({ id, secret } = basicCredentials(authorization));
    if (bodyId !== undefined && bodyId !== id)
      throw new InvalidRequestError(
        'The parameter "client_id" does not match the client of the Authorization header.',
      );
  } else {
    if (bodyId === undefined) throw new MissingParameterError('client_id');
    if (bodySecret === undefined) throw new MissingParameterError('client_secret');
    id = bodyId;
    secret = bodySecret;
  }
  const client = await clients.find(id);
  // Hash the secret even for an unknown client, so that the time does not tell which exist.
  const matches = secrets.matches(secret, client?.secretHash ?? '0'.repeat(64));
  if (!client || !matches) throw new InvalidClientError();
  return client;
}
