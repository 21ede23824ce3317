/** An error the contract names (status, `error` code, message); never a Nest HTTP exception. */
export class DomainError extends Error {
  /** More of the envelope, beside `status_code`, `error` and `message` (a series' `unavailable`). */
  readonly details?: Record<string, unknown>;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends DomainError {
  constructor(code = 'bad_request', message = 'Bad Request') {
    super(400, code, message);
  }
}

/** The body is required but is not a JSON object. */
export class ExpectedJsonObjectError extends DomainError {
  constructor() {
    super(400, 'bad_request', 'Expected a JSON object.');
  }
}

/** The API's `WWW-Authenticate` challenge: Basic, the scheme a client without credentials should use. */
export const BASIC_CHALLENGE = 'Basic realm="api", charset="UTF-8"';

/** A presented Bearer token that is unknown or disabled (RFC 6750 §3.1). */
export const BEARER_CHALLENGE = 'Bearer realm="api", error="invalid_token"';

export class UnauthorizedError extends DomainError {
  constructor(readonly challenge: string = BASIC_CHALLENGE) {
    super(401, 'unauthorized', 'Unauthorized');
  }
}

/** Authenticated, but the resource belongs to another account. */
export class ForbiddenError extends DomainError {
  constructor() {
    super(403, 'forbidden', 'Forbidden');
  }
}

export class NotFoundError extends DomainError {
  constructor(message = 'Not Found') {
    super(404, 'not_found', message);
  }
}

export class ConflictError extends DomainError {
  constructor(code = 'conflict', message = 'Conflict') {
    super(409, code, message);
  }
}

/** Over a limit; the client may try again after `retryAfterSeconds` (the `Retry-After` header). */
export class TooManyRequestsError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    code = 'too_many_requests',
  ) {
    super(429, code, message);
  }
}

/** A validation failure of a request attribute (class-validator or a domain rule). */
export class InvalidAttributeError extends DomainError {
  constructor(code: string, message: string, status = 400) {
    super(status, code, message);
  }
}

/**
 * The class of an InvalidAttributeError with a fixed code, its message made from the constructor's
 * arguments: `class UnknownLabelError extends AttributeError('invalid_labels', (id: number) => …) {}`.
 */
export function AttributeError<A extends unknown[]>(code: string, message: (...args: A) => string) {
  return class extends InvalidAttributeError {
    constructor(...args: A) {
      super(code, message(...args));
    }
  };
}

/** A value as error messages quote it: a string as sent, anything else as its JSON. */
export function shown(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}
