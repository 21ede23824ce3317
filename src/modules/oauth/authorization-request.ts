import { Injectable } from '@nestjs/common';
import type { OAuthClient } from './oauth-client.entity';
import { OAuthClientRepository } from './oauth-client.repository';
import {
  API_SCOPE,
  AuthorizationRedirectError,
  UnknownApplicationError,
  UnverifiedRedirectUriError,
} from './oauth.errors';

/** An authorization request whose client and redirect URI are verified. */
export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  state: string | undefined;
  /** PKCE S256 challenge, when the app sent one: the token request must then prove it. */
  codeChallenge: string | undefined;
  /** The query string as received (without `?`): the pages' forms post back to it. */
  query: string;
}

/** RFC 7636 §4.2: S256 is BASE64URL(SHA256(verifier)) without padding, 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** The query of a request URL, without `?` ('' when none). */
export function queryOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
}

/**
 * Reads and checks `GET /oauth2/authorize`'s parameters (and those of the forms posted to the same
 * query). Read with URLSearchParams, not the API's array-aware parser: a repeated parameter is an
 * error (RFC 6749 §3.1), not a list. Until the client and its redirect URI are verified, errors are
 * an error page (redirecting to an unverified URI would make us an open redirector); after that,
 * they go back to the app as `error`, `error_description` and `state`.
 */
@Injectable()
export class AuthorizationRequests {
  constructor(private readonly clients: OAuthClientRepository) {}

  async parse(query: string): Promise<AuthorizationRequest> {
    const params = new URLSearchParams(query);
    const repeated = (name: string) => params.getAll(name).length > 1;

    if (repeated('client_id'))
      throw new UnknownApplicationError('The parameter "client_id" is repeated.');
    const clientId = params.get('client_id');
    if (!clientId)
      throw new UnknownApplicationError(
        'The request has no "client_id": the application that sent you here is misconfigured.',
      );
    const client = await this.clients.find(clientId);
    if (!client)
      throw new UnknownApplicationError(`The application "${clientId}" is not registered.`);

    if (repeated('redirect_uri'))
      throw new UnverifiedRedirectUriError('The parameter "redirect_uri" is repeated.');
    const redirectUri = params.get('redirect_uri');
    if (!redirectUri)
      throw new UnverifiedRedirectUriError(
        `The request has no "redirect_uri": ${client.name} is misconfigured.`,
      );
    if (!client.redirectUris.includes(redirectUri))
      throw new UnverifiedRedirectUriError(
        `The redirect URI "${redirectUri}" is not registered for ${client.name}.`,
      );

    // From here on, errors go back to the app, with its state unless that was repeated.
    const state = repeated('state') ? undefined : params.get('state') || undefined;
    const fail = (code: string, message: string): never => {
      throw new AuthorizationRedirectError(code, message, redirectUri, state);
    };
    const once = ['state', 'response_type', 'scope', 'code_challenge', 'code_challenge_method'];
    for (const name of once)
      if (repeated(name)) fail('invalid_request', `The parameter "${name}" is repeated.`);

    const responseType = params.get('response_type');
    if (!responseType) fail('invalid_request', 'The parameter "response_type" is required.');
    if (responseType !== 'code')
      fail(
        'unsupported_response_type',
        `The response type "${responseType}" is not supported: use "code".`,
      );

    if (params.get('scope') !== API_SCOPE)
      fail('invalid_scope', `The scope must be "${API_SCOPE}".`);

    const challenge = params.get('code_challenge') || undefined;
    const method = params.get('code_challenge_method');
    if (challenge === undefined) {
      if (method !== null)
        fail(
          'invalid_request',
          'The parameter "code_challenge" is required with "code_challenge_method".',
        );
    } else {
      // Only S256: "plain" (the default) lets whoever sees the request redeem the code.
      if (method !== 'S256') fail('invalid_request', 'The code_challenge_method must be "S256".');
      if (!S256_CHALLENGE.test(challenge))
        fail('invalid_request', 'The code_challenge must be 43 base64url characters (S256).');
    }

    return { client, redirectUri, state, codeChallenge: challenge, query };
  }
}

/** The redirect URI with these parameters added (its own query is kept). */
export function redirectTo(
  redirectUri: string,
  params: Record<string, string | undefined>,
): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.append(name, value);
  return url.toString();
}
