import { DomainError, InvalidAttributeError } from '../../common/errors/domain-error';

/** The challenge of a failed client authentication at the token and disconnect endpoints. */
export const CLIENT_CHALLENGE = 'Basic realm="oauth2", charset="UTF-8"';

/**
 * An error of the token or disconnect endpoint (RFC 6749 §5.2), answered as the contract's
 * `{error, message}` without `status_code`: 400, or 401 for a failed client authentication.
 */
export class OAuthEndpointError extends DomainError {}

/** A parameter is missing, repeated, invalid, or the request is malformed. */
export class InvalidRequestError extends OAuthEndpointError {
  constructor(message: string) {
    super(400, 'invalid_request', message);
  }
}

export class RepeatedParameterError extends InvalidRequestError {
  constructor(name: string) {
    super(`The parameter "${name}" is repeated.`);
  }
}

export class MissingParameterError extends InvalidRequestError {
  constructor(name: string) {
    super(`The parameter "${name}" is required.`);
  }
}

/**
 * Client authentication failed: unknown client, wrong secret, or a malformed Authorization header.
 * Always 401 with the Basic challenge (HTTP requires a challenge with 401; it also names the scheme
 * the endpoint accepts).
 */
export class InvalidClientError extends OAuthEndpointError {
  constructor(message = 'Client authentication failed.') {
    super(401, 'invalid_client', message);
  }
}

export class MalformedBasicCredentialsError extends InvalidClientError {
  constructor() {
    super('Client authentication failed: the Authorization header must be Basic credentials.');
  }
}

/** The code (or token) is invalid, expired, used, or belongs to another client. */
export class InvalidGrantError extends OAuthEndpointError {
  constructor(message: string) {
    super(400, 'invalid_grant', message);
  }
}

export class UnsupportedGrantTypeError extends OAuthEndpointError {
  constructor(grantType: string) {
    super(
      400,
      'unsupported_grant_type',
      `The grant type "${grantType}" is not supported: use "authorization_code".`,
    );
  }
}

export class InvalidScopeError extends OAuthEndpointError {
  constructor() {
    super(400, 'invalid_scope', `The scope must be "${API_SCOPE}".`);
  }
}

/** The one scope of the contract: the whole v1 API of the account. */
export const API_SCOPE = 'api-v1';

/**
 * The authorization endpoint cannot trust where to send the user (no or unknown client, a redirect
 * URI not registered for it): it shows an error page and never redirects (RFC 6749 §4.1.2.1).
 */
export class AuthorizationPageError extends DomainError {
  constructor(
    readonly title: string,
    message: string,
  ) {
    super(400, 'invalid_request', message);
  }
}

/** No, a repeated or an unregistered `client_id`. */
export class UnknownApplicationError extends AuthorizationPageError {
  constructor(message: string) {
    super('Unknown application', message);
  }
}

/** No, a repeated or an unregistered `redirect_uri` for the client. */
export class UnverifiedRedirectUriError extends AuthorizationPageError {
  constructor(message: string) {
    super('Invalid redirect URI', message);
  }
}

/** Any other authorization error: the user is sent back to the app with `error` and `state`. */
export class AuthorizationRedirectError extends DomainError {
  constructor(
    code: string,
    message: string,
    readonly redirectUri: string,
    readonly state: string | undefined,
  ) {
    super(302, code, message);
  }
}

/** A login or consent form that is not sent form-encoded: an error page. */
export class FormNotUrlEncodedError extends InvalidAttributeError {
  constructor() {
    super('invalid_request', 'The form must be sent as application/x-www-form-urlencoded.');
  }
}

/* Registering a client (the operator CLI). */

/** `why` completes the sentence: `must be an absolute URL`. */
export class InvalidRedirectUriError extends InvalidAttributeError {
  constructor(uri: string, why: string) {
    super('invalid_redirect_uri', `The redirect URI "${uri}" ${why}.`);
  }
}

export class RedirectUriCountError extends InvalidAttributeError {
  constructor(max: number) {
    super('invalid_redirect_uri', `A client has 1 to ${max} redirect URIs.`);
  }
}
