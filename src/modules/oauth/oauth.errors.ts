import { DomainError } from '../../common/errors/domain-error';

/** The challenge of a failed client authentication at the token and disconnect endpoints. */
export const CLIENT_CHALLENGE = 'Basic realm="oauth2", charset="UTF-8"';

/** An error of the token or disconnect endpoint (RFC 6749 §5.2): 400, or 401 for the client. */
export class OAuthEndpointError extends DomainError {}

/** A parameter is missing, repeated, invalid, or the request is malformed. */
export class InvalidRequestError extends OAuthEndpointError {
  constructor(message: string) {
    super(400, 'invalid_request', message);
  }
}

export class MissingParameterError extends InvalidRequestError {
  constructor(name: string) {
    super(`The parameter "${name}" is required.`);
  }
}

/** Client authentication failed: 401, with the Basic challenge HTTP requires with a 401. */
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

/** The one scope of the contract: the whole v1 API of the account. */
export const API_SCOPE = 'api-v1';

/** Where to send the user is not trusted: an error page, never a redirect (RFC 6749 §4.1.2.1). */
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
